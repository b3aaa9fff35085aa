import { SHORTCUTS } from './keyboard.js';
import { PanelButton } from './Panel.js';
import { CAUTIOUS_RULE } from './words.js';

/** "Help": the rules of Klondike and the ways to play, short. */
export function HelpButton() {
  return (
    <PanelButton name="Help" title="How to play" close="Close" class="help">
      <p>
        Build the four foundations up by suit, from Ace to King: the game is won when all 52 cards are home.
        In the seven columns, build down in alternating colours (a red 6 on a black 7). Any face-up card may
        move with the cards on it, if they go down one by one, red and black in turn. A face-down card turns
        up once nothing lies on it. Only a King (with the cards on it) goes to an empty column.
      </p>
      <p>
        Click the stock to draw (three cards or one, as the rules say); when it is empty, click it again to
        turn the waste over for another pass, as many times as the rules allow. Only the waste's top card
        plays. A card on a foundation may come back to a column, unless the rules say otherwise. The house
        rules: draw three, three passes through the deck, and cards may come back from the foundations;
        Settings changes them for the next deal.
      </p>
      <p>
        <strong>Safe cards home:</strong> {CAUTIOUS_RULE}
      </p>
      <p>
        <strong>Scores</strong> (Settings chooses the one the bar shows): Standard gives 10 for a card sent
        home, 5 for a card from the waste to a column, 5 for a card turned up, and takes 15 for a card taken
        back from its foundation, never below 0. Vegas starts at −$52 and gives $5 a card home (taking $5 back
        for a card that leaves its foundation).
      </p>
      <p>
        <strong>The daily deal</strong> is the same deal for everyone for a day (UTC), under the house rules
        whatever Settings says: one game each, signed in, with no hints and no analysis until the day is over.
        Only games won on their own day are ranked: by the fewest actions (every draw, move, undo and redo
        counts), then the shortest time from the first action, then the earliest finish; players equal on all
        three share a rank.
      </p>
      <h3>Ways to play</h3>
      <ul>
        <li>Drag cards to where they go, or click a card and then the pile it goes to.</li>
        <li>Double-click a card to send it home.</li>
        <li>
          Keys: Tab reaches the table (one stop), ← → choose a pile (Home and End the first and the last), ↑ ↓
          more or fewer cards of a column (from the top row, ↓ goes to the columns), Enter picks up and puts
          down, Esc lets go;{' '}
          {Object.entries(SHORTCUTS)
            .map(([key, what]) => `${key.toUpperCase()} ${what.toLowerCase()}`)
            .join(', ')}
          .
        </li>
        <li>Every click and key counts, in order, even while the table is still catching up.</li>
      </ul>
      <p>
        Once a game is over, the table says whether its deal could be won and until which move, and can show a
        winning line; New game can deal the same deal again.
      </p>
    </PanelButton>
  );
}
