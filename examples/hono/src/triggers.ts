/**
 * The example app's triggers (files in app/triggers/, named after their
 * files as the `framework` CLI names them) and the runtime that runs them
 * in-process. The inbound-mail and avatar triggers are registered when their
 * stores are given.
 */
import { createTriggerRuntime, type TriggerDefinition, type TriggerRuntime } from '@framework/trigger';
import type { StorageAdapter } from '@framework/auth';
import type { Mailer } from './mailer.js';
import type { NoteStore } from './inbound-mail.js';
import type { AvatarUploadLog } from './local-bucket.js';
import dailyCleanup from '../app/triggers/daily-cleanup.js';
import sendWelcomeMail from '../app/triggers/send-welcome-mail.js';
import signedWebhook from '../app/triggers/signed-webhook.js';
import inboundNote from '../app/triggers/inbound-note.js';
import avatarUploaded from '../app/triggers/avatar-uploaded.js';

export interface ExampleRuntimeExtras {
  /** Notes written by the inbound mail trigger. */
  notes?: NoteStore;
  /** Sizes recorded by the avatar bucket trigger. */
  avatarUploads?: AvatarUploadLog;
}

export function createExampleRuntime(adapter: StorageAdapter, mailer: Mailer, extras: ExampleRuntimeExtras = {}): TriggerRuntime {
  const triggers: Record<string, TriggerDefinition<any, any>> = {
    'daily-cleanup': dailyCleanup,
    'send-welcome-mail': sendWelcomeMail,
    'signed-webhook': signedWebhook,
  };
  if (extras.notes) triggers['inbound-note'] = inboundNote;
  if (extras.avatarUploads) triggers['avatar-uploaded'] = avatarUploaded;
  return createTriggerRuntime({
    name: 'example',
    triggers,
    env: { auth: { adapter }, mailer, ...extras },
  });
}
