import { readdirSync, readFileSync } from 'node:fs';
const dir = process.argv[2]!; const pattern = new RegExp(process.argv[3]!); const depth = Number(process.argv[4] ?? 4);
const agg = new Map<string, number>();
for (const f of readdirSync(dir)) {
  const p = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { nodes: Array<{ id: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number } }>; samples: number[]; timeDeltas: number[] };
  const parent = new Map<number, number>(); const byId = new Map<number, (typeof p.nodes)[number]>();
  for (const n of p.nodes) { byId.set(n.id, n); for (const c of n.children ?? []) parent.set(c, n.id); }
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000));
  for (const [id, ms] of self) {
    let cur: number | undefined = id; const seen: number[] = [];
    while (cur !== undefined) { seen.push(cur); cur = parent.get(cur); }
    const idx = seen.findIndex((x) => pattern.test(byId.get(x)!.callFrame.functionName));
    if (idx < 0) continue;
    const chain = `${f.split('-')[0]}: ` + seen.slice(idx, idx + depth).map((x) => { const cf = byId.get(x)!.callFrame; return `${cf.functionName}@${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber + 1}`; }).join(' < ');
    agg.set(chain, (agg.get(chain) ?? 0) + ms);
  }
}
for (const [k, v] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[5] ?? 10))) console.log(v.toFixed(0).padStart(6), k);
