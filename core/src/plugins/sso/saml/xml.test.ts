/** The XML reading helpers: namespace-aware selection, whole text content, refusal of what is not XML. */
import { describe, expect, it } from 'vitest';
import { attribute, elements, parseXml, text } from './xml.js';

const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';

describe('SAML XML reading', () => {
  it('reads the whole text of an element with a comment inside, not the part before it', () => {
    const doc = parseXml(`<saml:NameID xmlns:saml="${SAML}">user@evil.com<!---->.example.com</saml:NameID>`)!;
    expect(text(elements(doc, '/saml:NameID')[0])).toBe('user@evil.com.example.com');
  });

  it('selects by namespace, not by prefix', () => {
    const doc = parseXml(`<a:Assertion xmlns:a="${SAML}" ID="x"><Issuer>not SAML</Issuer></a:Assertion>`)!;
    const assertion = elements(doc, '/saml:Assertion')[0];
    expect(attribute(assertion, 'ID')).toBe('x');
    expect(elements(assertion!, 'saml:Issuer')).toEqual([]);
    expect(elements(parseXml(`<saml:Assertion xmlns:saml="urn:other"/>`)!, '/saml:Assertion')).toEqual([]);
  });

  it('returns undefined for what is not well-formed XML', () => {
    for (const input of ['', '<a', '<a></b>', 'plain text'])
      expect([input, parseXml(input)]).toEqual([input, undefined]);
  });

  it('tells an absent attribute from an empty one', () => {
    const a = elements(parseXml('<a x=""/>')!, '/a')[0];
    expect(attribute(a, 'x')).toBe('');
    expect(attribute(a, 'y')).toBeUndefined();
  });
});
