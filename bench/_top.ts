import { ownerTable, summarizeProfiles, topFunctions } from './lib/cpuProfiles.js';
const s = summarizeProfiles(process.argv[2]!);
console.log(s.processes.map((p) => `${p.file} ${(p.cpuMs / 1000).toFixed(1)}`).join('\n'));
console.log(ownerTable(s, 14).join('\n'));
const all = s.functions.filter((f) => f.owner !== '(idle)').slice(0, Number(process.argv[3] ?? 30));
for (const f of all) console.log(f.selfMs.toFixed(0).padStart(6), f.owner.padEnd(18), f.label.slice(0, 130));
