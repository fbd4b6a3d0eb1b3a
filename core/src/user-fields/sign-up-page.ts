/**
 * The custom fields on the default sign-up page (`GET {basePath}/signup`): one input per field the client may set.
 * @module
 * @internal
 */
import { escapeHtml } from '../pages/html.js';
import type { UserField } from './definitions.js';
import { FIELD_TEXT_MAX_LENGTH } from './input.js';

/** `planTier` → `Plan tier`. */
function labelOf(name: string): string {
  const words = name
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function inputOf(field: UserField, id: string): string {
  const name = escapeHtml(field.name);
  const required = field.required && field.defaultValue === undefined ? ' required' : '';
  switch (field.type) {
    case 'boolean':
      return `<input id="${id}" name="${name}" type="checkbox" value="true"${field.defaultValue === true ? ' checked' : ''}>`;
    case 'number':
      return `<input id="${id}" name="${name}" type="number" step="any"${required}>`;
    case 'date':
      return `<input id="${id}" name="${name}" type="date"${required}>`;
    case 'string[]':
      return `<input id="${id}" name="${name}" type="text" placeholder='["a","b"]'${required}>`;
    case 'string':
      return `<input id="${id}" name="${name}" type="text" maxlength="${field.unique ? 255 : FIELD_TEXT_MAX_LENGTH}"${required}>`;
  }
}

/**
 * Labelled inputs for the fields with `input` not false (checkboxes for booleans, `type="number"` and
 * `type="date"` where they fit); `required` where sign-up needs a value. Empty without such fields.
 */
export function signUpFieldInputs(fields: readonly UserField[]): string {
  return fields
    .filter((f) => f.input)
    .map((field) => {
      const id = `signup-field-${escapeHtml(field.name)}`;
      return `<label for="${id}">${escapeHtml(labelOf(field.name))}</label>${inputOf(field, id)}`;
    })
    .join('');
}
