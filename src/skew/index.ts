export { analyseSkew, sortFindings } from './analyseSkew.js';
export { analyseSkewMatrix } from './analyseSkewMatrix.js';
export { compareSchemas, type CompareContext, type Issue } from './compareSchemas.js';
export { countFindings, renderSkew } from './renderSkew.js';
export { renderSkewMatrix } from './renderSkewMatrix.js';
export { SKEW_KINDS } from './skewTypes.js';
export type {
  SkewCounts,
  SkewDirection,
  SkewFinding,
  SkewFormat,
  SkewKind,
  SkewMatrix,
  SkewMatrixCell,
  SkewOptions,
  SkewReport,
  SkewSeverity,
  SkewSide,
} from './skewTypes.js';
