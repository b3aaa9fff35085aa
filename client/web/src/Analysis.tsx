import { useEffect, useRef, useState } from 'preact/hooks';
import type { Analysis as Answer, PlayedMove, View } from '../../types.js';
import { lostAfter, verdictWords } from '../../verdict.js';
import { api, failureWords, isPassing } from './api.js';
import { replayLink } from './links.js';
import { Table } from './Table.js';
import { moveWords } from './words.js';

/** Between two moves of the winning line, ms: time to see each card land. */
const LINE_STEP_MS = 450;
/** Views of the line fetched ahead of the one shown. */
const AHEAD = 4;

/** What the analysis says, in words: the step after which the game was lost, as the replay numbers it. */
const analysisWords = (analysis: Answer, view: View): string =>
  verdictWords(
    analysis,
    view,
    (last) => `You could still have won until step ${last} of the replay; after it, no line could.`,
  );

/** A busy server (its solver out of time, or throttling) or a lost connection: the analysis is asked again this many times, this far apart. */
const ANALYSIS_RETRIES = 4;
const ANALYSIS_RETRY_MS = 5_000;

interface AnalysisProps {
  readonly view: View;
  readonly token: string | undefined;
  /** Plays the winning line on the table. */
  readonly onWatch: (line: PlayedMove[]) => void;
}

/**
 * After a game: GET /games/{id}/analysis, in words. Whether the deal could be won, from which step
 * on it could not (with a link to that step in the replay), and a winning line to watch.
 */
export function Analysis({ view, token, onWatch }: AnalysisProps) {
  const [analysis, setAnalysis] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Counts the asks: a busy or unreachable server is asked again a while later, then on Try again. */
  const [round, setRound] = useState(0);
  const retries = useRef(0);
  useEffect(() => {
    let current = true;
    let later: ReturnType<typeof setTimeout> | undefined;
    api.analysis(view.id, token).then(
      (answer) => current && setAnalysis(answer),
      (failure: unknown) => {
        if (!current) return;
        if (isPassing(failure) && retries.current < ANALYSIS_RETRIES) {
          retries.current++;
          later = setTimeout(() => setRound((n) => n + 1), ANALYSIS_RETRY_MS);
        } else setError(failureWords(failure));
      },
    );
    return () => {
      current = false;
      clearTimeout(later);
    };
  }, [view.id, round]);
  const tryAgain = () => {
    retries.current = 0;
    setError(null);
    setRound((n) => n + 1);
  };

  const last = analysis?.lastWinnableVersion;
  const lost = analysis ? lostAfter(analysis, view) : undefined;
  return (
    <section
      class="analysis"
      data-analysis
      data-verdict={analysis?.verdict}
      data-last-winnable={typeof last === 'number' ? last : undefined}
      aria-live="polite"
    >
      <p>
        {analysis ? analysisWords(analysis, view) : (error ?? 'Working out whether this deal could be won…')}{' '}
        {lost !== undefined && (
          <a href={`${replayLink(view.id)}&at=${lost}`}>See step {lost} in the replay.</a>
        )}
      </p>
      <div class="buttons">
        {error && (
          <button type="button" onClick={tryAgain}>
            Try again
          </button>
        )}
        {analysis?.line && (
          <button type="button" onClick={() => onWatch(analysis.line!)}>
            Watch the winning line
          </button>
        )}
        <a class="button" href={replayLink(view.id)}>
          Watch the replay
        </a>
      </div>
    </section>
  );
}

interface LineProps {
  /** The finished game: its deck and rules. */
  readonly game: View;
  readonly line: readonly PlayedMove[];
  readonly onStop: () => void;
}

/**
 * A winning line played on the table from the deal, move after move, each view asked of
 * POST /replays (which stores nothing) a few moves ahead of the one shown.
 */
export function WinningLine({ game, line, onStop }: LineProps) {
  const [step, setStep] = useState(0);
  const [views, setViews] = useState<ReadonlyMap<number, View>>(new Map());
  const [paused, setPaused] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** Counts the player's Try again: the views that could not be fetched are asked again. */
  const [round, setRound] = useState(0);
  const asked = useRef(new Set<number>());

  // Fetch the views from the one shown to a few ahead (those not yet fetched nor being fetched).
  useEffect(() => {
    for (let i = step; i <= Math.min(line.length, step + AHEAD); i++) {
      if (asked.current.has(i)) continue;
      asked.current.add(i);
      api.playFrom(game.deck!, game.rules, line.slice(0, i) as PlayedMove[]).then(
        (view) => setViews((old) => new Map(old).set(i, view)),
        (failure: unknown) => {
          asked.current.delete(i);
          setError(failureWords(failure));
        },
      );
    }
  }, [step, round]);
  const tryAgain = () => {
    setError(null);
    setRound((n) => n + 1);
  };

  // The next move, once its view is there and the last one has been seen.
  useEffect(() => {
    if (paused || step >= line.length || !views.has(step + 1)) return;
    const timer = setTimeout(() => setStep(step + 1), LINE_STEP_MS);
    return () => clearTimeout(timer);
  }, [step, views, paused]);

  const shown = views.get(step);
  const move = step > 0 ? line[step - 1] : undefined;
  return (
    <section class="winning-line" aria-label="The winning line">
      <div class="line-bar">
        {/* Said when paused or done: a move every 450 ms is faster than a screen reader speaks. */}
        <span aria-live={paused || step === line.length ? 'polite' : 'off'}>
          {step === 0
            ? `The deal. A winning line of ${line.length} moves follows.`
            : `Move ${step} of ${line.length}: ${moveWords(move!, views.get(step - 1) ?? null)}.`}
          {step === line.length && ' Won.'}
        </span>
        {step < line.length && (
          <button type="button" onClick={() => setPaused(!paused)}>
            {paused ? 'Go on' : 'Pause'}
          </button>
        )}
        <button type="button" onClick={onStop}>
          Back to the game
        </button>
      </div>
      {error && (
        <p class="message error" role="alert">
          {error}{' '}
          <button type="button" onClick={tryAgain}>
            Try again
          </button>
        </p>
      )}
      {shown ? <Table view={shown} /> : <p class="loading">Dealing the line…</p>}
    </section>
  );
}
