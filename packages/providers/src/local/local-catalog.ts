// Catalog of the offline provider: one eSpeak NG model, free, with the synthesizer's curated voices.

import type { LocalVoice } from '@voice-router/speech-espeak';
import { NEVER_SMOKE_TESTED, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

export const LOCAL_MODEL_ID = 'espeak-ng';
/** The engine has no hard cap; this keeps one request from holding a worker for minutes. */
export const LOCAL_MAX_INPUT_CHARACTERS = 4096;

export function localVoiceDescriptor(voice: LocalVoice): VoiceDescriptor {
  const labels: Record<string, string> = { engine: 'espeak-ng' };
  if (voice.gender) labels.gender = voice.gender;
  return { id: voice.id, name: voice.name, language: voice.language, labels, modelCompatibility: [LOCAL_MODEL_ID] };
}

export function buildLocalDescriptor(voices: LocalVoice[]): ProviderDescriptor {
  return {
    id: 'local',
    name: 'Local (eSpeak NG)',
    website: 'https://github.com/espeak-ng/espeak-ng',
    requiresApiKey: false,
    models: [
      {
        id: LOCAL_MODEL_ID,
        name: 'eSpeak NG (offline formant synthesis)',
        responseFormats: ['mp3', 'pcm'],
        pricing: { unit: 'character', microsPerUnit: 0 },
        maxInputCharacters: LOCAL_MAX_INPUT_CHARACTERS,
      },
    ],
    voices: voices.map(localVoiceDescriptor),
    capabilities: {
      supportedFormats: ['mp3', 'pcm'],
      unwiredCapabilities: ['ssml', 'custom voices'],
      quirks: [
        'runs in-process on worker threads: free, offline, robotic-sounding',
        'speed maps to eSpeak words per minute and clamps at the engine limits (80 to 450 wpm)',
        'instructions are not supported and are dropped with a warning',
        'mp3 is 24 kHz mono 48 kbps; pcm is 24 kHz 16-bit little-endian mono (resampled from 22.05 kHz)',
        'the synthesizer is GPL-3.0 and lives in its own package',
      ],
      lastSmokeTest: NEVER_SMOKE_TESTED,
    },
  };
}
