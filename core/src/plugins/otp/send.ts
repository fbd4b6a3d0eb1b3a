/**
 * Sending a fresh code through the app's hook, the same way on every channel: the code is issued (replacing the
 * last), handed to the hook through the kit's message seam, and withdrawn again when the hook fails.
 * @module
 */
import type { RouteContext } from '../../plugin-kit.js';
import type { OtpCodes, OtpTarget } from './codes.js';
import { otpError } from './errors.js';

/** What {@link sendCode} needs besides the target. */
export interface CodeDelivery<T> {
  /** Who receives it: an email address or an E.164 number. */
  to: string;
  channel: 'email' | 'sms';
  /** The message kind `auth.onMessage` observers see (`email-otp`, `sms-otp`, …). */
  kind: 'email-otp' | 'sms-otp';
  /** What the app's hook receives, built from the code and when it stops working. */
  data(code: string, expiresAt: Date): T;
  /** The app's hook. */
  send(data: T): unknown;
  /** Names the hook in the log line when it throws (`emailOTP: sendVerificationOTP`). */
  hookName: string;
}

/**
 * Issues a code for `target` and sends it with `delivery.send`. With `awaited`, a throwing hook withdraws the code
 * and answers 502 `OTP_SEND_FAILED`; without, the answer does not wait for the hook (so its timing tells nothing)
 * and a throw is logged (by error name only) after withdrawing the code.
 * @throws AuthError `OTP_SEND_FAILED` (502) when `awaited` and the hook threw.
 */
export async function sendCode<T>(
  ctx: RouteContext,
  codes: OtpCodes,
  target: OtpTarget,
  delivery: CodeDelivery<T>,
  awaited: boolean,
): Promise<void> {
  const { code, expiresAt } = await codes.issue(ctx, target);
  const data = delivery.data(code, expiresAt);
  const { to, channel, kind } = delivery;
  const send = () => ctx.auth.deliver({ kind, channel, to, code, expiresAt, data }, () => delivery.send(data));
  const failed = async (error: unknown) => {
    await codes.withdraw(target);
    ctx.auth.logger.error(`[auth] ${delivery.hookName} threw: ${error instanceof Error ? error.name : typeof error}`);
  };
  if (!awaited) {
    void Promise.resolve()
      .then(send)
      .catch((error: unknown) => failed(error).catch(() => {}));
    return;
  }
  try {
    await send();
  } catch (error) {
    await failed(error);
    throw otpError('OTP_SEND_FAILED');
  }
}
