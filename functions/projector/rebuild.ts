import { ownedGames } from '../store/events.js';
import { deleteReadModels } from '../store/readModels.js';
import { projectRow, refreshStats } from './project.js';

/**
 * Deletes every read model and builds them again from the log alone: every signed-in player's game
 * is found by its deal in a scan of the event table and projected as the projector does it (so a
 * rebuild and the stream agree by construction), then each player's statistics once.
 */
export async function rebuildReadModels(): Promise<{ deleted: number; games: number; players: number }> {
  const deleted = await deleteReadModels();
  const players = new Set<string>();
  let games = 0;
  for await (const id of ownedGames()) {
    const row = await projectRow(id);
    if (row) players.add(row.player);
    games++;
  }
  for (const player of players) await refreshStats(player);
  return { deleted, games, players: players.size };
}
