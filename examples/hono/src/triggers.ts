/**
 * The example app's triggers (files in app/triggers/, named after their
 * files as the `framework` CLI names them) and the runtime that runs them
 * in-process.
 */
import { createTriggerRuntime, type TriggerRuntime } from '@framework/trigger';
import type { StorageAdapter } from '@framework/auth';
import dailyCleanup from '../app/triggers/daily-cleanup.js';
import sendWelcomeMail from '../app/triggers/send-welcome-mail.js';
import signedWebhook from '../app/triggers/signed-webhook.js';

/** A mail as the dev mailer records it. */
export interface SentMail {
  to: string;
  subject: string;
  text: string;
  sentAt: Date;
}

/** A mailer that keeps sent mail in memory and logs one line per mail (real delivery comes with SMTP support). */
export function devMailer(log: (line: string) => void = (line) => console.info(line)) {
  const sent: SentMail[] = [];
  return {
    sent,
    async send(mail: { to: string; subject: string; text: string }) {
      sent.push({ ...mail, sentAt: new Date() });
      log(`[mail] to ${mail.to}: ${mail.subject}`);
    },
  };
}

export type DevMailer = ReturnType<typeof devMailer>;

export function createExampleRuntime(adapter: StorageAdapter, mailer: DevMailer): TriggerRuntime {
  return createTriggerRuntime({
    name: 'example',
    triggers: { 'daily-cleanup': dailyCleanup, 'send-welcome-mail': sendWelcomeMail, 'signed-webhook': signedWebhook },
    env: { auth: { adapter }, mailer },
  });
}
