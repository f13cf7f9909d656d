import { HarnessError } from '../../core/index.js';
import { configFileAt, findConfigFile, loadConfigFile } from './configFile.js';
import type { RunSettings } from './optionTable.js';
import { mergeRunSettings, type SettingsLayer } from './runSettings.js';

export interface LoadedRunSettings {
  readonly settings: RunSettings;
  /** The configuration file the settings came from, if any. */
  readonly configFile: string | undefined;
  readonly project: string | undefined;
}

/**
 * The settings of `contract-gate run`: the command line (and the options' environment variables) over the chosen
 * project of the configuration file, over its top level, over the table's defaults. The file is `--config`, else
 * the first contract-gate.config.{ts,mjs,json} from `cwd` upward.
 */
export async function loadRunSettings(given: Readonly<Record<string, unknown>>, cwd: string = process.cwd()): Promise<LoadedRunSettings> {
  const configFile = typeof given['config'] === 'string' ? configFileAt(given['config'], cwd) : findConfigFile(cwd);
  const file = configFile ? await loadConfigFile(configFile) : undefined;
  const project = typeof given['project'] === 'string' ? given['project'] : undefined;
  const layers: SettingsLayer[] = [];
  if (file) layers.push({ values: file.options, baseDir: file.dir });
  if (project !== undefined) {
    const names = Object.keys(file?.projects ?? {});
    const chosen = file?.projects[project];
    if (!file) throw new HarnessError('USAGE', `--project ${project}: there is no configuration file (contract-gate.config.{ts,mjs,json} here or above, or --config FILE)`);
    if (!chosen) throw new HarnessError('USAGE', `--project ${project}: ${file.path} has ${names.length ? `the projects ${names.join(', ')}` : 'no projects'}`);
    layers.push({ values: chosen, baseDir: file.dir });
  }
  layers.push({ values: given, baseDir: cwd });
  return { settings: mergeRunSettings(layers), configFile, project };
}
