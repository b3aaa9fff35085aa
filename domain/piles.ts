/**
 * Piles by name, as clients write them, and by number, as the rules engine works with them:
 * 0 = waste, 1..7 = tableau columns t1..t7, 8..11 = foundations fC fD fH fS.
 */
/** Where a move may go, as recorded: a concrete pile. */
export const DESTINATION_NAMES = ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 'fC', 'fD', 'fH', 'fS'] as const;
export type DestinationName = (typeof DESTINATION_NAMES)[number];
export const PILE_NAMES = ['waste', ...DESTINATION_NAMES] as const;
export type PileName = (typeof PILE_NAMES)[number];
/** A move's source: any pile but the stock. */
export type SourceName = PileName;
/** Where a client may send a move: a destination, or `foundation` (the one of the card's suit). */
export const TARGET_NAMES = [...DESTINATION_NAMES, 'foundation'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export const WASTE = 0;
export const FIRST_COLUMN = 1;
export const COLUMNS = 7;
export const FIRST_FOUNDATION = 8;

export const isColumn = (pile: number): boolean => pile >= FIRST_COLUMN && pile < FIRST_FOUNDATION;
export const isFoundation = (pile: number): boolean => pile >= FIRST_FOUNDATION;
export const columnIndex = (pile: number): number => pile - FIRST_COLUMN;
export const foundationSuit = (pile: number): number => pile - FIRST_FOUNDATION;
export const foundationPile = (suit: number): number => FIRST_FOUNDATION + suit;
export const columnPile = (column: number): number => FIRST_COLUMN + column;

const INDEX: Readonly<Record<string, number>> = Object.fromEntries(PILE_NAMES.map((name, i) => [name, i]));
/** The number of a pile by name; -1 for anything that is not a pile. */
export const pileIndex = (name: string): number => (Object.hasOwn(INDEX, name) ? INDEX[name]! : -1);
export const pileName = (pile: number): PileName => PILE_NAMES[pile]!;
