/** The solver: pure, like the rest of the domain. Budgets and clocks come in as arguments. */
export { ANALYSIS_BUDGET, type Analysis, type AnalysisBudget, analyse } from './analysis.js';
export { autocomplete, safeAutoplay } from './autoplay.js';
export { HINT_BUDGET, type Hint, type HintBudget, hint } from './hint.js';
export { playerBoard } from './knowledge.js';
export {
  DEFAULT_NODES,
  type SolveBudget,
  type SolveResult,
  type SolveStats,
  solve,
  solveBoard,
} from './solve.js';
export { type WinnableDeal, winnableDeal } from './winnable.js';
