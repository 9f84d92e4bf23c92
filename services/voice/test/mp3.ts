/** A small MP3 frame walker for tests: every frame header must parse and chain to the next. */
const BITRATES: Record<string, number[]> = {
  // MPEG-1 Layer III, then MPEG-2/2.5 Layer III (kbps by index).
  v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

export interface Mp3Info {
  frames: number;
  sampleRate: number;
  durationSeconds: number;
}

export function parseMp3(bytes: Uint8Array): Mp3Info {
  let i = 0;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    // ID3v2: skip its syncsafe-sized body.
    const size = ((bytes[6] ?? 0) << 21) | ((bytes[7] ?? 0) << 14) | ((bytes[8] ?? 0) << 7) | (bytes[9] ?? 0);
    i = 10 + size;
  }
  let frames = 0;
  let sampleRate = 0;
  let samples = 0;
  while (i + 4 <= bytes.length) {
    const b1 = bytes[i + 1] as number;
    const b2 = bytes[i + 2] as number;
    if (bytes[i] !== 0xff || (b1 & 0xe0) !== 0xe0) throw new Error(`no frame sync at byte ${i}`);
    const version = (b1 >> 3) & 3;
    const layer = (b1 >> 1) & 3;
    if (version === 1 || layer !== 1) throw new Error(`not MPEG Layer III at byte ${i}`);
    const bitrate = (version === 3 ? BITRATES.v1 : BITRATES.v2)?.[b2 >> 4] ?? 0;
    const rate = RATES[version]?.[(b2 >> 2) & 3] ?? 0;
    if (!bitrate || !rate) throw new Error(`bad bitrate or sample rate at byte ${i}`);
    const padding = (b2 >> 1) & 1;
    const perFrame = version === 3 ? 1152 : 576;
    const length = Math.floor(((perFrame / 8) * bitrate * 1000) / rate) + padding;
    sampleRate = rate;
    samples += perFrame;
    frames++;
    i += length;
  }
  if (i !== bytes.length && i - bytes.length > 4) throw new Error('truncated last frame');
  return { frames, sampleRate, durationSeconds: sampleRate ? samples / sampleRate : 0 };
}
