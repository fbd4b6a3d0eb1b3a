/**
 * The example app's triggers (files in app/triggers/, named after their
 * files as the `framework` CLI names them) and the runtime that runs them
 * in-process.
 */
import { createTriggerRuntime, type TriggerRuntime } from '@framework/trigger';
import type { StorageAdapter } from '@framework/auth';
import type { Mailer } from './mailer.js';
import dailyCleanup from '../app/triggers/daily-cleanup.js';
import sendWelcomeMail from '../app/triggers/send-welcome-mail.js';
import signedWebhook from '../app/triggers/signed-webhook.js';

export function createExampleRuntime(adapter: StorageAdapter, mailer: Mailer): TriggerRuntime {
  return createTriggerRuntime({
    name: 'example',
    triggers: { 'daily-cleanup': dailyCleanup, 'send-welcome-mail': sendWelcomeMail, 'signed-webhook': signedWebhook },
    env: { auth: { adapter }, mailer },
  });
}
