// Local speech worker (plain JS: runs in a worker thread without a TypeScript loader).
// eSpeak NG (WASM) renders a WAV, LAME (WASM, from wasm-media-encoders) encodes it to MP3. The
// eSpeak module is compiled once; a fresh eSpeak instance is prepared ahead of each request (the CLI keeps global state, so an
// instance serves one synthesis), which keeps its start-up cost off the request path.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import ESpeakNg from 'espeak-ng';
import { createMp3Encoder } from 'wasm-media-encoders';

const require = createRequire(import.meta.url);
const wasm = await WebAssembly.compile(readFileSync(require.resolve('espeak-ng/dist/espeak-ng.wasm')));
// eSpeak renders 22,050 Hz mono; MPEG-2 Layer III at that rate and 32 kbps keeps the voice
// clear at about 4 KB per second of speech. (The WASM LAME encodes a sentence in tens of ms;
// the pure-JS lamejs took hundreds, most of a synthesis:
// docs/adr/0028-local-speech-espeak-ng-and-wasm-lame.md.)
const KBPS = 32;
const READY = 2;
// One encoder per thread, reconfigured for each synthesis.
const mp3Encoder = await createMp3Encoder();

async function prepare() {
  let exports;
  const module = await ESpeakNg({
    noInitialRun: true,
    noExitRuntime: true,
    print: () => {},
    printErr: () => {},
    instantiateWasm: (imports, done) => {
      WebAssembly.instantiate(wasm, imports).then((instance) => {
        exports = instance.exports;
        done(instance, wasm);
      });
      return {};
    },
  });
  return { module, exports };
}

/** Runs eSpeak's main(argc, argv) on a prepared instance. */
function runMain({ exports }, args) {
  const argv = ['espeak-ng', ...args];
  const encoder = new TextEncoder();
  const pointers = argv.map((arg) => {
    const bytes = encoder.encode(`${arg}\0`);
    const p = exports.malloc(bytes.length);
    new Uint8Array(exports.memory.buffer, p, bytes.length).set(bytes);
    return p;
  });
  const argvPointer = exports.malloc(4 * pointers.length);
  new Uint32Array(exports.memory.buffer, argvPointer, pointers.length).set(pointers);
  try {
    return exports.__main_argc_argv(argv.length, argvPointer);
  } catch (err) {
    // exit() surfaces as an ExitStatus exception carrying the code.
    if (err && typeof err === 'object' && 'status' in err) return err.status;
    throw err;
  }
}

function toMp3(wav) {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const rate = view.getUint32(24, true);
  // Find the "data" chunk rather than assuming a 44-byte header.
  let offset = 12;
  while (offset + 8 <= wav.byteLength && view.getUint32(offset, false) !== 0x64617461) {
    offset += 8 + view.getUint32(offset + 4, true);
  }
  const start = offset + 8;
  const length = Math.min(view.getUint32(offset + 4, true), wav.byteLength - start);
  const pcm = new Int16Array(
    wav.buffer.slice(wav.byteOffset + start, wav.byteOffset + start + (length & ~1)),
  );
  const samples = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) samples[i] = pcm[i] / 32768;
  mp3Encoder.configure({ channels: 1, sampleRate: rate, bitrate: KBPS });
  // encode() and finalize() return views into the encoder's memory: copy each out.
  const head = mp3Encoder.encode([samples]).slice();
  const tail = mp3Encoder.finalize();
  const out = new Uint8Array(head.length + tail.length);
  out.set(head, 0);
  out.set(tail, head.length);
  return out;
}

function synthesize(instance, text, args) {
  instance.module.FS.writeFile('/in.txt', text);
  const code = runMain(instance, [...args, '-f', '/in.txt', '-w', '/out.wav']);
  let wav;
  try {
    wav = instance.module.FS.readFile('/out.wav');
  } catch {
    throw new Error(`espeak-ng produced no audio (exit ${code})`);
  }
  return toMp3(wav);
}

// Warm the JIT before the first visitor waits: the first syntheses of a fresh thread run
// about twice as slow as later ones.
for (const args of [
  ['-v', 'en-us+f3'],
  ['-v', 'en-us+m3'],
  ['-v', 'en-us+f2'],
]) {
  synthesize(
    await prepare(),
    'Warming up the speech engine so that the first caller never waits for it.',
    args,
  );
}

// A few instances are kept ready, refilled in the background after each use. A failed
// preparation is reported to the request that takes it, never as an unhandled rejection.
const ready = [];
const refill = () => {
  const instance = prepare();
  instance.catch(() => {});
  ready.push(instance);
};
for (let i = 0; i < READY; i++) refill();

// The pool sends one request at a time; should several arrive together, each takes a prepared
// instance or prepares its own (never an empty slot of `ready`).
parentPort.on('message', async ({ id, text, args }) => {
  try {
    const instance = await (ready.shift() ?? prepare());
    setImmediate(() => {
      if (ready.length < READY) refill();
    });
    const mp3 = synthesize(instance, text, args);
    parentPort.postMessage({ id, mp3 }, [mp3.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});

// Warm and listening: the pool sends requests from now on.
parentPort.postMessage({ ready: true });
