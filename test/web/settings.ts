/**
 * For tests that play a known line move by move: the page's safe cards home by themselves (on by
 * default) would play some of the line's moves first. Run in a context before its pages load.
 */
export const WITHOUT_AUTOPLAY = `localStorage.setItem('klondike.settings', JSON.stringify({ autoplay: false }));`;
