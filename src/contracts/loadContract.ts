import { readFileSync } from 'node:fs';
import { HarnessError, isJsonObject, type JsonObject } from '../../core/index.js';
import { buildContract } from './buildContract.js';
import type { Contract } from './contractModel.js';
import { findDanglingRefs } from './refCheck.js';
import { validateOpenRpcDocument } from './metaSchema.js';

export interface LoadContractOptions {
  /** Validate against the OpenRPC meta-schema (default true). */
  validate?: boolean;
}

function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

function parseJson(text: string, origin: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HarnessError('CONTRACT_INVALID', `${origin} is not JSON (${(error as Error).message}); pass an OpenRPC document in JSON form`, { cause: error });
  }
}

/** Parses and checks an already-read document; throws HarnessError CONTRACT_INVALID naming the JSON pointer of the first fault. */
export function parseContract(document: unknown, origin: string, options: LoadContractOptions = {}): Contract {
  if (!isJsonObject(document)) {
    throw new HarnessError('CONTRACT_INVALID', `${origin} at "": the document must be a JSON object with openrpc, info and methods`);
  }
  if (options.validate !== false) {
    const errors = validateOpenRpcDocument(document);
    const first = errors[0];
    if (first) {
      const detail = first.params && 'missingProperty' in first.params ? ` (${String(first.params['missingProperty'])})` : '';
      throw new HarnessError(
        'CONTRACT_INVALID',
        `${origin} at "${first.instancePath}": ${first.message ?? 'invalid'}${detail} — the document does not follow the OpenRPC meta-schema` +
          (errors.length > 1 ? ` (${errors.length - 1} more violation(s))` : ''),
      );
    }
  }
  const dangling = findDanglingRefs(document);
  if (dangling[0]) {
    throw new HarnessError(
      'CONTRACT_INVALID',
      `${origin} at "${dangling[0].pointer}": $ref "${dangling[0].ref}" does not resolve inside the document — fix the reference or inline the schema` +
        (dangling.length > 1 ? ` (${dangling.length - 1} more dangling reference(s))` : ''),
    );
  }
  return buildContract(document as JsonObject, origin);
}

/**
 * The documents this process has read, by path: their text and the contract built from it, checked against the
 * meta-schema or not. A run asks for the same document several times (its configuration, its plan, its reports);
 * each later ask reads the file again and gets the same contract while the text is unchanged, instead of parsing,
 * checking and building it anew (about 60 ms for a large document). Contracts are never changed after they are built.
 */
const loadedFiles = new Map<string, { readonly text: string; readonly validated: boolean; readonly contract: Contract }>();

/** The contract this process built from `text` read at `path`, if it has built one; never loads anything itself. */
export function loadedContract(path: string, text: string): Contract | undefined {
  const known = loadedFiles.get(path);
  return known?.text === text ? known.contract : undefined;
}

/** Reads a contract from a file path synchronously (used at test collection time). */
export function loadContractSync(path: string, options: LoadContractOptions = {}): Contract {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new HarnessError('CONTRACT_NOT_FOUND', `cannot read contract ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); check the path of the OpenRPC document`, { cause: error });
  }
  const validated = options.validate !== false;
  const known = loadedFiles.get(path);
  if (known && known.text === text && (known.validated || !validated)) return known.contract;
  const contract = parseContract(parseJson(text, path), path, options);
  loadedFiles.set(path, { text, validated, contract });
  return contract;
}

/** Reads a contract from a file path or an http(s) URL. */
export async function loadContract(source: string, options: LoadContractOptions = {}): Promise<Contract> {
  if (!isUrl(source)) return loadContractSync(source, options);
  let text: string;
  try {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch (error) {
    throw new HarnessError('CONTRACT_NOT_FOUND', `cannot fetch contract ${source} (${(error as Error).message}); check the URL`, { cause: error });
  }
  return parseContract(parseJson(text, source), source, options);
}
