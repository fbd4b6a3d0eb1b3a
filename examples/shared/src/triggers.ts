/**
 * The trigger runtime every example runs in-process: the example app's
 * triggers, named after their files as the `framework` CLI names them. The
 * inbound-mail and avatar triggers are registered when their stores are given
 * (only the Hono example has them).
 *
 * The trigger files themselves stay in examples/hono/app/triggers/: that is
 * the app folder the `framework triggers` CLI lists (`--dir app/triggers`,
 * run in examples/hono) and the one triggers.test.ts loads, so this module
 * imports them from there. It is the one place where the shared package
 * reaches into an example's folder.
 */
import { createTriggerRuntime, type TriggerDefinition, type TriggerRuntime } from '@framework/trigger';
import type { StorageAdapter } from '@framework/auth';
import type { Mailer } from './mailer.js';
import dailyCleanup from '../../hono/app/triggers/daily-cleanup.js';
import sendWelcomeMail from '../../hono/app/triggers/send-welcome-mail.js';
import signedWebhook from '../../hono/app/triggers/signed-webhook.js';
import { assertWebhookSecret } from '../../hono/app/triggers/_webhook-secret.js';
import inboundNote from '../../hono/app/triggers/inbound-note.js';
import avatarUploaded from '../../hono/app/triggers/avatar-uploaded.js';

export interface ExampleRuntimeExtras {
  /** Notes written by the inbound mail trigger (the Hono example's `NoteStore`, src/inbound-mail.ts). */
  notes?: { add(note: { from: string; subject: string; text: string }): void };
  /** Sizes recorded by the avatar bucket trigger (the Hono example's `AvatarUploadLog`, src/local-bucket.ts). */
  avatarUploads?: { record(upload: { key: string; size: number }): void };
}

/** `more`: an example's own triggers (the Hono example's dashboard demo), with `env` additions for them. */
export function createExampleRuntime(
  adapter: StorageAdapter,
  mailer: Mailer,
  extras: ExampleRuntimeExtras = {},
  more: { triggers?: Record<string, TriggerDefinition<any, any>>; env?: Record<string, unknown> } = {},
): TriggerRuntime {
  assertWebhookSecret();
  const triggers: Record<string, TriggerDefinition<any, any>> = {
    'daily-cleanup': dailyCleanup,
    'send-welcome-mail': sendWelcomeMail,
    'signed-webhook': signedWebhook,
  };
  if (extras.notes) triggers['inbound-note'] = inboundNote;
  if (extras.avatarUploads) triggers['avatar-uploaded'] = avatarUploaded;
  Object.assign(triggers, more.triggers);
  return createTriggerRuntime({
    name: 'example',
    triggers,
    env: { auth: { adapter }, mailer, ...extras, ...more.env },
  });
}
