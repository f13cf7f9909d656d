/**
 * What a cell observed, as counts: the evidence behind its verdict. A pass means "the rule held on what was seen";
 * with nothing seen it means nothing, so the matrix counts passes whose evidence is empty (the gate's own
 * self-audit keeps that count at 0).
 */
export const EVIDENCE_KINDS = ['framesSent', 'answersJudged', 'eventsJudged', 'serverRequestsAnswered', 'sequencesRun', 'refusalsSeen'] as const;

export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

export type Evidence = Record<EvidenceKind, number>;

/**
 * Kinds that count something the target did and a judge looked at. Frames sent are the harness's own doing:
 * sending a thousand requests and looking at none of the answers is no evidence.
 */
export const OBSERVED_KINDS: readonly EvidenceKind[] = EVIDENCE_KINDS.filter((kind) => kind !== 'framesSent');

/** The annotation type of one count (`contract-gate.evidence.answersJudged`), also a JUnit property name. */
export const EVIDENCE_ANNOTATION_PREFIX = 'contract-gate.evidence.';

export function noEvidence(): Evidence {
  return { framesSent: 0, answersJudged: 0, eventsJudged: 0, serverRequestsAnswered: 0, sequencesRun: 0, refusalsSeen: 0 };
}

/** `base` with the counts `claimed` names replacing its own: a judge knows better than a frame count what it judged. */
export function withClaims(base: Evidence, claimed: Partial<Evidence> | undefined): Evidence {
  const merged = { ...base };
  for (const kind of EVIDENCE_KINDS) {
    const value = claimed?.[kind];
    if (value !== undefined) merged[kind] = value;
  }
  return merged;
}

export function addEvidence(a: Evidence, b: Evidence): Evidence {
  const sum = noEvidence();
  for (const kind of EVIDENCE_KINDS) sum[kind] = a[kind] + b[kind];
  return sum;
}

/** Whether anything the rule judges was observed. */
export function isEvidenced(evidence: Evidence | undefined): boolean {
  return evidence !== undefined && OBSERVED_KINDS.some((kind) => evidence[kind] > 0);
}

/** One annotation per count, in EVIDENCE_KINDS order. */
export function evidenceAnnotations(evidence: Evidence): Array<{ type: string; description: string }> {
  return EVIDENCE_KINDS.map((kind) => ({ type: `${EVIDENCE_ANNOTATION_PREFIX}${kind}`, description: String(evidence[kind]) }));
}

/** The counts of a test's annotations; undefined when it carries none (a test written before evidence existed). */
export function evidenceFromAnnotations(annotations: ReadonlyArray<{ type: string; description?: string }>): Evidence | undefined {
  let found = false;
  const evidence = noEvidence();
  for (const annotation of annotations) {
    if (!annotation.type.startsWith(EVIDENCE_ANNOTATION_PREFIX)) continue;
    const kind = annotation.type.slice(EVIDENCE_ANNOTATION_PREFIX.length) as EvidenceKind;
    const value = Number(annotation.description);
    if (!(EVIDENCE_KINDS as readonly string[]).includes(kind) || !Number.isFinite(value)) continue;
    evidence[kind] = value;
    found = true;
  }
  return found ? evidence : undefined;
}

const SHORT: Record<EvidenceKind, string> = {
  framesSent: 'frames sent',
  answersJudged: 'answers judged',
  eventsJudged: 'events judged',
  serverRequestsAnswered: 'server requests answered',
  sequencesRun: 'sequences run',
  refusalsSeen: 'refusals seen',
};

/** `12 frames sent · 10 answers judged`: the non-zero counts, or `nothing observed`. */
export function describeEvidence(evidence: Evidence | undefined): string {
  if (!evidence) return 'no evidence recorded';
  const parts = EVIDENCE_KINDS.filter((kind) => evidence[kind] > 0).map((kind) => `${evidence[kind]} ${SHORT[kind]}`);
  return parts.length > 0 ? parts.join(' · ') : 'nothing observed';
}
