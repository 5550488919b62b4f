/**
 * How long the platform's one-time links stay valid. Rules of the domain, not of the mails that
 * mention them: the server dates the tokens with them, the mails and the operator's command line
 * say them.
 */

/** An invitation link to a workspace, in days. */
export const invitationLifetimeDays = 7;

/** A password-reset link, in minutes (the mail says "within one hour"). */
export const passwordResetLifetimeMinutes = 60;
