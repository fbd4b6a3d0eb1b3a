import { defineTrigger, type TriggerContext } from '@framework/trigger';

/** The part of the example app's env this trigger uses (see src/local-bucket.ts). */
interface AvatarEnv {
  avatarUploads: { record(upload: { key: string; size: number }): unknown };
}

/** Records the size of every avatar written to the `avatars` bucket under `users/`. */
export default defineTrigger({
  source: { type: 'objectstore', bucket: 'avatars', events: ['object:create'], prefix: 'users/' },
  config: { retries: 2, retryDelay: '1s' },
  handle: async (event, ctx: TriggerContext<AvatarEnv>) => {
    await ctx.env.avatarUploads.record({ key: event.object.key, size: event.object.size });
  },
});
