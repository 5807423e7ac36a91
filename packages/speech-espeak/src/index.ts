// Public surface of @voice-router/speech-espeak: offline text-to-speech with eSpeak NG (GPL-3.0-only).
export { SynthesizerBusyError, UnknownVoiceError } from './errors.js';
export { createLocalSynthesizer, type LocalSynthesisRequest, type LocalSynthesizer, type LocalSynthesizerOptions } from './local-synthesizer.js';
export type { LocalVoice } from './voices.js';
