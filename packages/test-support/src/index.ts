// Helpers for the project's own test suites: a fresh PostgreSQL database or Redis prefix per suite,
// a plain note when a suite is skipped, audio checks that need no external tool, and the deployment's
// nginx configuration run in front of loopback processes, V8's collector for what-stays-reachable checks, and
// the young generation a process's Node flags allow.
export { createTestDatabase, postgresUrl, type TestDatabase } from './test-database.js';
export { redisUrl, uniqueRedisPrefix, flushRedisPrefix } from './test-redis.js';
export { announceSkip } from './skip-note.js';
export { parseMp3Frames, type Mp3Summary } from './mp3-frames.js';
export { freePort } from './free-port.js';
export { ffprobeAvailable, probeAudio, startsWithMp3FrameSync, wrapPcmInWav, type ProbeFormat, type ProbedAudio } from './probe-audio.js';
export { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
export { startPrivateRedis, redisServerAvailable, type PrivateRedis } from './redis-server.js';
export { findNginx, nginxTemplatePath, renderNginxConfig, startNginx, type NginxOptions, type RoutedRequest, type RunningNginx } from './nginx.js';
export { captureLogs, testLogDirectory, LOG_DIRECTORY_VARIABLE } from './log-capture.js';
export { collectGarbage, isCollected } from './garbage.js';
export { newSpaceAfterChurn } from './young-generation.js';
export { scanLogDirectory, scanText, SECRET_PATTERNS, type LogFinding } from './log-scan.js';
