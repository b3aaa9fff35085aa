import { formatCard } from '../domain/index.js';

/**
 * A deal won by autoplay: the tableau holds A..7 of every suit, each column sorted so its top is the
 * card the foundations need first; the stock holds 8..K, each draw of three leaving on top the next
 * card home, then the two under it. One autoplay takes the 28 tableau cards home; eight times, a
 * draw and three moves take the stock home (34 requests, version 60). For benchmarks.
 */
export function quickDeck(): string[] {
  const home = (rank: number) => [0, 1, 2, 3].map((suit) => suit * 13 + rank);
  const tableau = [0, 1, 2, 3, 4, 5, 6].flatMap(home);
  const stock = [7, 8, 9, 10, 11, 12].flatMap(home);
  const columns: number[][] = [[], [], [], [], [], [], []];
  // Column c takes c + 1 cards; the last dealt (its top) is the first needed of them.
  let next = 0;
  for (let c = 0; c < 7; c++) {
    columns[c] = tableau.slice(next, next + c + 1).reverse();
    next += c + 1;
  }
  const deck: number[] = [];
  for (let row = 0; row < 7; row++) for (let c = row; c < 7; c++) deck.push(columns[c]![row]!);
  for (let i = 0; i < stock.length; i += 3) deck.push(stock[i + 2]!, stock[i + 1]!, stock[i]!);
  return deck.map(formatCard);
}
