/** The solver: pure, like the rest of the domain. Budgets and clocks come in as arguments. */
export { autocomplete, safeAutoplay } from './autoplay.js';
export { type Hint, hint, playerBoard } from './hint.js';
export {
  DEFAULT_NODES,
  type SolveBudget,
  type SolveResult,
  type SolveStats,
  solve,
  solveBoard,
} from './solve.js';
export { type WinnableDeal, winnableDeal } from './winnable.js';
