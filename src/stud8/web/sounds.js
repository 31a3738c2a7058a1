// The table's sounds: the beep of my turn, a card dealt, a check's knock, the chips of
// a bet (a bring-in, a completion, a raise, a call), a fold's swish and the chime of a
// pot won. Each is made here with WebAudio (oscillators and a burst of noise, no sound
// file), short and quiet, and the table's switch mutes them all; the switch is the
// account's "sounds" setting (settings.js keeps it with the account). A page of several
// tables has one audio context for all of them (browsers cap how many a page may open,
// six in Chromium), made when the first table may play and closed with the last.

const MUTE_KEY = "stud8.mute";
export const HEARD_KEPT = 100; // the last sounds' kinds a table remembers (the tests read them)

/** The page's one audio context, and the tables' sounds that use it. */
const page = { ctx: null, users: new Set() };

/** The page's audio context for `user` (made by the first), or null without WebAudio. */
function pageContext(user) {
  if (!page.ctx && typeof AudioContext !== "undefined") page.ctx = new AudioContext();
  if (page.ctx) page.users.add(user);
  return page.ctx;
}

/** `user` is done with it: the last to go closes it. */
function leaveContext(user) {
  if (!page.users.delete(user) || page.users.size || !page.ctx) return;
  page.ctx.close().catch(() => {});
  page.ctx = null;
}

/** The sound of each event the table hears (the others are silent). */
export const SOUND_OF = {
  street: "deal", check: "check", fold: "fold",
  bring_in: "chips", complete: "chips", bet: "chips", raise: "chips", call: "chips",
};

/** One short noise (white, half a second), made once per audio context. */
function noise(ctx) {
  if (ctx.stud8Noise) return ctx.stud8Noise;
  const buffer = ctx.createBuffer(1, Math.floor(ctx.sampleRate / 2), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  ctx.stud8Noise = buffer;
  return buffer;
}

/** A gain that swells to `peak` and dies away over `length` seconds from `at`. */
function envelope(ctx, at, peak, length) {
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + 0.005);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  gain.connect(ctx.destination);
  return gain;
}

function tone(ctx, at, { type = "sine", freq, peak = 0.15, length = 0.2, slideTo = null }) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (slideTo) osc.frequency.exponentialRampToValueAtTime(slideTo, at + length);
  osc.connect(envelope(ctx, at, peak, length));
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function hiss(ctx, at, { filter = "bandpass", freq, toFreq = null, peak = 0.2, length = 0.08 }) {
  const src = ctx.createBufferSource();
  src.buffer = noise(ctx);
  const shape = ctx.createBiquadFilter();
  shape.type = filter;
  shape.frequency.setValueAtTime(freq, at);
  if (toFreq) shape.frequency.exponentialRampToValueAtTime(toFreq, at + length);
  src.connect(shape).connect(envelope(ctx, at, peak, length));
  src.start(at);
  src.stop(at + length + 0.02);
}

const VOICES = {
  turn(ctx, t) { tone(ctx, t, { freq: 880, peak: 0.2, length: 0.25 }); },
  // a card flicked across the felt: two short high hisses
  deal(ctx, t) { for (const d of [0, 0.07]) hiss(ctx, t + d, { freq: 3200, peak: 0.18, length: 0.05 }); },
  // two knuckle taps on the table
  check(ctx, t) { for (const d of [0, 0.11]) tone(ctx, t + d, { freq: 190, slideTo: 110, peak: 0.3, length: 0.07 }); },
  // chips clicking on a stack: three bright clicks, a little apart
  chips(ctx, t) {
    for (const [d, f] of [[0, 2600], [0.045, 3100], [0.085, 2800]]) {
      tone(ctx, t + d, { type: "triangle", freq: f, peak: 0.08, length: 0.04 });
      hiss(ctx, t + d, { filter: "highpass", freq: 5000, peak: 0.05, length: 0.03 });
    }
  },
  // cards pushed away: a falling swish
  fold(ctx, t) { hiss(ctx, t, { filter: "lowpass", freq: 2400, toFreq: 300, peak: 0.16, length: 0.22 }); },
  // a pot won: a rising major arpeggio
  win(ctx, t) {
    [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => tone(ctx, t + i * 0.09, { type: "triangle", freq: f, peak: 0.12, length: 0.35 }));
  },
};

/** The table's sounds, and its mute switch (remembered, and kept with the account). */
export class TableSound {
  constructor() {
    this.ctx = null;
    this.played = 0; // sounds played (the tests read it)
    this.heard = []; // the last HEARD_KEPT of their kinds, in order (the tests read it)
  }

  get muted() { return localStorage.getItem(MUTE_KEY) === "1"; }
  set muted(v) {
    localStorage.setItem(MUTE_KEY, v ? "1" : "0");
    window.dispatchEvent(new Event("stud8:settings")); // kept with the account (settings.js)
  }

  /** The mute switch's button (in the table's header). */
  buttonHTML() {
    const m = this.muted;
    return `<button type="button" id="mute" class="mute" aria-pressed="${m}" aria-label="Mute the table's sounds" title="the table's sounds: your turn, the deal, bets, folds and wins">${m ? "Sound off" : "Sound on"}</button>`;
  }

  /** Take the page's audio context once it may play sound (after a click or a key). */
  unlock() {
    if (!this.ctx) this.ctx = pageContext(this);
  }

  /** Play the sound `kind` (a key of VOICES) now, unless muted. True if it played. */
  play(kind) {
    const voice = VOICES[kind];
    if (!voice || this.muted) return false;
    if (!this.ctx) this.unlock();
    const ctx = this.ctx;
    if (!ctx) return false;
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    voice(ctx, ctx.currentTime);
    this.played += 1;
    this.heard.push(kind);
    if (this.heard.length > HEARD_KEPT) this.heard.splice(0, this.heard.length - HEARD_KEPT);
    return true;
  }

  /** My turn. */
  beep() { return this.play("turn"); }

  /** A live event of the table: its sound, if it has one. */
  event(ev) { return SOUND_OF[ev.k] ? this.play(SOUND_OF[ev.k]) : false; }

  stop() {
    leaveContext(this);
    this.ctx = null;
  }
}
