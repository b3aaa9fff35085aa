/** The solver: pure, like the rest of the domain. Budgets and clocks come in as arguments. */
export {
  DEFAULT_NODES,
  type SolveBudget,
  type SolveResult,
  type SolveStats,
  solve,
  solveBoard,
} from './solve.js';
