// Types for the parts of the eSpeak NG Emscripten build this package drives (the package ships none).
// Verified against espeak-ng.js 0.3.5: the default export is an async module factory, and
// `eSpeakNGWorker.synthesize` hands each ~100 ms block of 22,050 Hz samples to the callback;
// a truthy return from the callback makes eSpeak NG stop the current synthesis.
declare module '@echogarden/espeak-ng-emscripten' {
  export interface EspeakEvent {
    type: string;
    text_position: number;
    word_length: number;
    audio_position: number;
    id: string | number | undefined;
  }

  export interface EspeakNGWorker {
    /** 0 on success, 2 (EE_NOT_FOUND) when no voice matches; the previous voice then stays active. */
    set_voice(name: string): number;
    /** Words per minute; eSpeak NG clamps it internally to 80..450. */
    rate: number;
    readonly samplerate: number;
    synthesize(text: string, callback: (samples: Int16Array, events: EspeakEvent[]) => boolean): void;
  }

  export interface EspeakModule {
    eSpeakNGWorker: new () => EspeakNGWorker;
  }

  export default function createEspeakModule(moduleArgument?: object): Promise<EspeakModule>;
}
