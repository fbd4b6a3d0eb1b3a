/**
 * The extra inputs of the default sign-up page (`GET {basePath}/signup`): the plugins' sign-up fields, then one
 * input per custom user field the client may set; a refused form shows them again with the values typed.
 * @module
 * @internal
 */
import { escapeHtml } from '../pages/html.js';
import type { UserField } from './definitions.js';
import { FIELD_TEXT_MAX_LENGTH } from './input.js';
import type { SignUpField } from '../contract/types.js';
import { messageFor } from '../i18n/catalog.js';
import type { PageLocale } from '../i18n/options.js';

/** The values a refused sign-up form carried, by input name (strings only; the password is never among them). */
export type SignUpValues = Readonly<Record<string, unknown>>;

/** `planTier` → `Plan tier`. */
function labelOf(name: string): string {
  const words = name
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** ` value="…"` for a kept text value, or nothing. */
function valueOf(values: SignUpValues, name: string): string {
  const value = Object.hasOwn(values, name) ? values[name] : undefined;
  return typeof value === 'string' && value !== '' ? ` value="${escapeHtml(value)}"` : '';
}

function inputOf(field: UserField, id: string, values: SignUpValues): string {
  const name = escapeHtml(field.name);
  const required = field.required && field.defaultValue === undefined ? ' required' : '';
  const value = valueOf(values, field.name);
  switch (field.type) {
    case 'boolean': {
      const kept = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
      const checked =
        typeof kept === 'string' ? ['true', 'on', '1', 'yes'].includes(kept) : field.defaultValue === true;
      return `<input id="${id}" name="${name}" type="checkbox" value="true"${checked ? ' checked' : ''}>`;
    }
    case 'number':
      return `<input id="${id}" name="${name}" type="number" step="any"${value}${required}>`;
    case 'date':
      return `<input id="${id}" name="${name}" type="date"${value}${required}>`;
    case 'string[]':
      return `<input id="${id}" name="${name}" type="text" placeholder='["a","b"]'${value}${required}>`;
    case 'string':
      return `<input id="${id}" name="${name}" type="text" maxlength="${field.unique ? 255 : FIELD_TEXT_MAX_LENGTH}"${value}${required}>`;
  }
}

/** A plugin's sign-up field: its label and input, with the hints it declares. */
function pluginInput(field: SignUpField, values: SignUpValues, locale: PageLocale | undefined): string {
  const id = `signup-field-${escapeHtml(field.name)}`;
  const attributes = [
    `id="${id}"`,
    `name="${escapeHtml(field.name)}"`,
    `type="${escapeHtml(field.type ?? 'text')}"`,
    field.autocomplete ? `autocomplete="${escapeHtml(field.autocomplete)}"` : '',
    field.type === undefined || field.type === 'text' ? 'autocapitalize="none" spellcheck="false"' : '',
    field.minLength !== undefined ? `minlength="${Number(field.minLength)}"` : '',
    field.maxLength !== undefined ? `maxlength="${Number(field.maxLength)}"` : '',
  ].filter(Boolean);
  const required = field.required ? ' required' : '';
  const label = messageFor(locale, field.messageId, field.label);
  return `<label for="${id}">${escapeHtml(label)}</label><input ${attributes.join(' ')}${valueOf(values, field.name)}${required}>`;
}

/**
 * Labelled inputs for the plugins' sign-up fields and the custom fields with `input` not false (checkboxes for
 * booleans, `type="number"` and `type="date"` where they fit); `required` where sign-up needs a value. `values`
 * (a refused form's body) fills them in again. Empty without such fields. Labels are in `locale`'s language: a
 * plugin field's `messageId`, and for a custom field the message id `field.<name>` (`field.planTier`, from the app's
 * `locale.messages`), else the label as declared or derived from the name.
 */
export function signUpFieldInputs(
  fields: readonly UserField[],
  pluginFields: readonly SignUpField[] = [],
  values: SignUpValues = {},
  locale?: PageLocale,
): string {
  const own = fields
    .filter((f) => f.input)
    .map((field) => {
      const id = `signup-field-${escapeHtml(field.name)}`;
      const label = messageFor(locale, `field.${field.name}`, labelOf(field.name));
      return `<label for="${id}">${escapeHtml(label)}</label>${inputOf(field, id, values)}`;
    });
  return [...pluginFields.map((field) => pluginInput(field, values, locale)), ...own].join('');
}
