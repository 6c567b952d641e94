// Short sounds made with WebAudio (no files): a card played, a trick won, a calypso made.
// Whether to sound is the person's preference, which the caller asks (app.prefs.sound): no
// copy of it is kept here. The AudioContext starts on the first sound after a user gesture.

let context = null;

function audio() {
  const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!Context) return null;
  context ??= new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

// One note: a frequency, when it starts (s from now), how long, how loud, which wave.
function tone(ctx, freq, start, length, volume = 0.08, type = "sine") {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  const t = ctx.currentTime + start;
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(volume, t + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

const SOUNDS = {
  card: (ctx) => tone(ctx, 520, 0, 0.07, 0.05, "triangle"),
  trick: (ctx) => { tone(ctx, 660, 0, 0.12); tone(ctx, 880, 0.09, 0.16); },
  lost: (ctx) => { tone(ctx, 440, 0, 0.12, 0.06); tone(ctx, 330, 0.09, 0.18, 0.06); },
  calypso: (ctx) => [523, 659, 784, 1047].forEach((f, i) => tone(ctx, f, i * 0.09, 0.22, 0.07)),
  turn: (ctx) => tone(ctx, 740, 0, 0.09, 0.04),
};

/** Plays a named sound (card, trick, lost, calypso, turn) if sound is on. */
export function play(name) {
  try {
    const ctx = audio();
    if (ctx && SOUNDS[name]) SOUNDS[name](ctx);
  } catch {
    // a browser without audio: silence is fine
  }
}
