/** The most characters a leaderboard name may have (`PUT /me/profile`). */
export const NAME_MAX = 24;

/**
 * A leaderboard name's length as the service counts it (trimmed, a letter with its combining marks
 * one character), so that both clients can say a name is too long before they send it.
 */
export const nameCharacters = (raw: string): number =>
  raw
    .normalize('NFC')
    .trim()
    .match(/\P{M}\p{M}*|\p{M}+/gu)?.length ?? 0;
