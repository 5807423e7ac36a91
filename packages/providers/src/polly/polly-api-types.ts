// Amazon Polly's wire types for SynthesizeSpeech (POST /v1/speech) and DescribeVoices (GET /v1/voices), as
// the service model (botocore polly/2016-06-10/service-2.json) and @aws-sdk/client-polly name them.

export type PollyEngine = 'standard' | 'neural' | 'long-form' | 'generative';
export type PollyOutputFormat = 'mp3' | 'ogg_vorbis' | 'ogg_opus' | 'pcm' | 'json' | 'mulaw' | 'alaw';

/** The JSON body of POST /v1/speech (rest-json: PascalCase members; SampleRate is a string). */
export interface PollySynthesizeSpeechBody {
  Engine?: PollyEngine;
  LanguageCode?: string;
  LexiconNames?: string[];
  OutputFormat: PollyOutputFormat;
  SampleRate?: string;
  SpeechMarkTypes?: string[];
  Text: string;
  TextType?: 'text' | 'ssml';
  VoiceId: string;
}

/** One voice of GET /v1/voices. */
export interface PollyVoice {
  Gender?: 'Female' | 'Male';
  Id?: string;
  LanguageCode?: string;
  LanguageName?: string;
  Name?: string;
  AdditionalLanguageCodes?: string[];
  SupportedEngines?: PollyEngine[];
}

export interface PollyDescribeVoicesOutput {
  Voices?: PollyVoice[];
  NextToken?: string;
}

/**
 * Error types Polly names (service model `errors`, plus the AWS-wide auth and throttling ones). The type travels
 * in the `x-amzn-ErrorType` header (`Name:namespace`); the body is `{"message": "..."}`.
 */
export type PollyErrorType =
  | 'ValidationException'
  | 'TextLengthExceededException'
  | 'InvalidSampleRateException'
  | 'InvalidSsmlException'
  | 'LexiconNotFoundException'
  | 'EngineNotSupportedException'
  | 'LanguageNotSupportedException'
  | 'MarksNotSupportedForFormatException'
  | 'SsmlMarksNotSupportedForTextTypeException'
  | 'InvalidNextTokenException'
  | 'ServiceFailureException'
  | 'ThrottlingException'
  | 'UnrecognizedClientException'
  | 'InvalidSignatureException'
  | 'AccessDeniedException'
  | 'ExpiredTokenException';
