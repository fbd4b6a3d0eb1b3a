import { defineTrigger, type TriggerContext } from '@framework/trigger';

/** The part of the example app's env this trigger uses. */
interface MailEnv {
  mailer: { send(mail: { to: string; subject: string; text: string }): Promise<unknown> };
}

/** Body of a `welcome-mail` message, sent by the sign-up flow. */
interface WelcomeMail {
  to: string;
  name?: string;
}

/** Sends the welcome mail for each sign-up queued on `welcome-mail`. */
export default defineTrigger({
  source: { type: 'queue', name: 'welcome-mail', batchSize: 10, batchTimeout: '1s', retryDelay: '30s' },
  handle: async (event, ctx: TriggerContext<MailEnv>) => {
    for (const message of event.messages) {
      const body = message.body as Partial<WelcomeMail> | null;
      if (typeof body?.to !== 'string' || !body.to.includes('@')) {
        message.deadLetter('welcome-mail message without a recipient address');
        continue;
      }
      await ctx.env.mailer.send({
        to: body.to,
        subject: 'Welcome!',
        text: `Hello${body.name ? ` ${body.name}` : ''}, your account is ready.`,
      });
      message.ack();
    }
  },
});
