import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Clock } from '../clock.js';
import { ErrorCode, GatewayError } from '../wireErrors.js';
import { bool, type HandlerTable, int, str } from './handlerTypes.js';

/** A session key as a single, harmless directory name. */
function directoryName(sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9_.-]/g, '_');
  return safe === '' || /^\.+$/.test(safe) ? '_' : safe;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

interface Entry {
  readonly path: string;
  readonly session_id: string | null;
  readonly started_at: number | null;
  readonly finished_at: number | null;
  readonly label: string;
  readonly count: number;
}

const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

export interface SpawnTreeDeps {
  readonly clock: Clock;
  /** Snapshots live in `<dataDir>/spawn-trees/`. */
  readonly dataDir: string;
}

export function spawnTreeHandlers({ clock, dataDir }: SpawnTreeDeps): HandlerTable {
  const root = join(dataDir, 'spawn-trees');
  let counter = 0;

  const entries = (): Entry[] => {
    if (!existsSync(root)) return [];
    const found: Entry[] = [];
    for (const directory of readdirSync(root)) {
      const folder = join(root, directory);
      if (!statSync(folder).isDirectory()) continue;
      for (const name of readdirSync(folder).filter((file) => file.endsWith('.json'))) {
        const path = join(folder, name);
        try {
          const snapshot = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
          found.push({
            path,
            session_id: str(snapshot['session_id']) ?? null,
            started_at: typeof snapshot['started_at'] === 'number' ? snapshot['started_at'] : null,
            finished_at: typeof snapshot['finished_at'] === 'number' ? snapshot['finished_at'] : null,
            label: str(snapshot['label']) ?? '',
            count: Array.isArray(snapshot['subagents']) ? snapshot['subagents'].length : 0,
          });
        } catch {
          continue;
        }
      }
    }
    // File names are a zero-padded time and counter: newest first is reverse name order.
    return found.sort((a, b) => basename(b.path).localeCompare(basename(a.path)));
  };

  return {
    'spawn_tree.save': (params) => {
      const sessionId = str(params['session_id']) || 'default';
      const folder = join(root, directoryName(sessionId));
      mkdirSync(folder, { recursive: true });
      counter += 1;
      const path = join(folder, `${String(clock.now()).padStart(15, '0')}-${String(counter).padStart(9, '0')}.json`);
      const snapshot = {
        session_id: sessionId,
        started_at: params['started_at'] ?? null,
        finished_at: params['finished_at'] ?? null,
        label: params['label'] ?? null,
        subagents: params['subagents'],
      };
      writeFileSync(path, JSON.stringify(snapshot, null, 2));
      return { path, session_id: sessionId };
    },

    'spawn_tree.list': (params) => {
      const sessionId = str(params['session_id']);
      const crossSession = bool(params['cross_session']) ?? false;
      let found = entries();
      if (sessionId && !crossSession) found = found.filter((entry) => entry.session_id === sessionId);
      const limit = int(params['limit']);
      if (limit !== undefined && limit >= 0) found = found.slice(0, limit);
      return { entries: found };
    },

    'spawn_tree.load': (params) => {
      const requested = str(params['path']) ?? '';
      if (requested === '') throw new GatewayError(ErrorCode.INVALID_PARAMS_HERMES, 'path required');
      const outside = () => new GatewayError(ErrorCode.PATH_OUTSIDE_ROOT, `path is outside the spawn-trees root: ${requested}`);
      const lexical = resolve(root, requested);
      if (!inside(root, lexical)) throw outside();
      if (!existsSync(lexical)) throw new GatewayError(ErrorCode.INVALID_PARAMS_HERMES, `spawn tree not found: ${requested}`);
      // Symbolic links must not lead out of the root either.
      if (!inside(realpathSync(root), realpathSync(lexical))) throw outside();
      try {
        return JSON.parse(readFileSync(lexical, 'utf8')) as Record<string, unknown>;
      } catch {
        throw new GatewayError(ErrorCode.INVALID_PARAMS_HERMES, `spawn tree not readable: ${requested}`);
      }
    },
  };
}
