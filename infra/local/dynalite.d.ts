declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    /** Folder for a persistent LevelDB store; in memory when absent. */
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
    ssl?: boolean;
  }
  export default function dynalite(options?: DynaliteOptions): Server;
}
