// Public surface of @voice-router/speech-espeak: offline text-to-speech with eSpeak NG (GPL-3.0-only).
export { UnknownVoiceError } from './errors.js';
export { createLocalSynthesizer, type LocalSynthesisRequest, type LocalSynthesizer } from './local-synthesizer.js';
export type { LocalVoice } from './voices.js';
