/**
 * Namespace-aware reading of SAML XML through @xmldom/xmldom and xpath (the parser and query engine
 * @node-saml/node-saml itself uses). Reading only: signatures are verified by the library, never here.
 * @module
 */
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';

/** The namespaces of SAML 2.0 (Core §1.2, Metadata §1.2) and XML Signature, by the prefixes the queries use. */
const NAMESPACES = {
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  md: 'urn:oasis:names:tc:SAML:2.0:metadata',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

const select = xpath.useNamespaces(NAMESPACES);

/**
 * Parses `xml` into a document, or returns `undefined` for anything that is not well-formed XML: the parser's
 * warnings (an unclosed or mismatched tag) refuse it as its errors do.
 */
export function parseXml(xml: string): Document | undefined {
  let failed = false;
  const fail = (): void => {
    failed = true;
  };
  try {
    const doc = new DOMParser({ errorHandler: { warning: fail, error: fail, fatalError: fail } }).parseFromString(
      xml,
      'text/xml',
    ) as unknown as Document;
    return failed || !doc.documentElement ? undefined : doc;
  } catch {
    return undefined;
  }
}

/** The elements `path` selects from `node` (prefixes as in {@link NAMESPACES}). */
export function elements(node: Node, path: string): Element[] {
  const found = select(path, node as never);
  return Array.isArray(found) ? (found as unknown as Node[]).filter((n): n is Element => n.nodeType === 1) : [];
}

/** The attribute `name` of `element` (no namespace), or `undefined` when it is absent. */
export function attribute(element: Element | undefined, name: string): string | undefined {
  return element?.hasAttribute(name) ? element.getAttribute(name)! : undefined;
}

/** The whole text content of `element` (every text node, comments left out), trimmed. */
export function text(element: Element | undefined): string | undefined {
  const value = element?.textContent?.trim();
  return value ? value : undefined;
}
