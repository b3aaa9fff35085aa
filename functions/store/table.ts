/**
 * The one table: a partition per game, an item per event, sort key = version.
 * `pk` is the game id; `sk` is the event version (a number). Items whose `pk` starts with
 * `idem#` record the creation of a game under an Idempotency-Key (see functions/store/creations.ts).
 */
export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;
