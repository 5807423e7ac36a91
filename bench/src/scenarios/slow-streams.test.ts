// Scenario 4 against a small server that streams slowly and serves the same default metrics as the
// router's processes (service-kit's registry): the memory composition is read from real metric names.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '@voice-router/service-kit';
import { runSlowStreams } from './slow-streams.js';

describe('scenario 4: slow streams', () => {
  it("reads what the serving process's memory is made of from its own metrics, before the streams and at the peak read", async () => {
    const registry = createMetricsRegistry();
    const server = http.createServer((request, response) => {
      if (request.url === '/metrics') {
        void registry.metrics().then((text) => response.end(text));
        return;
      }
      request.resume();
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      const timer = setInterval(() => response.write(Buffer.alloc(4096, 1)), 50);
      response.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const row = await runSlowStreams({
        system: 'router-scaled', baseUrl, metricsUrl: baseUrl, pids: () => [process.pid], cpuGroups: () => ({}),
        speech: () => ({ method: 'POST', path: '/v1/audio/speech', headers: { 'content-type': 'application/json' }, body: '{}' }),
      }, { streams: 4, readBytes: 4096, intervalMs: 100, windowSeconds: 1.2 }, 100);
      expect(row.streaming).toBe(4);
      expect(row.droppedSyns).toBeGreaterThanOrEqual(0);
      const { before, atPeak } = row.memory!;
      for (const memory of [before, atPeak]) {
        expect(memory.heapMB).toBeGreaterThan(1);
        expect(memory.newSpaceMB).toBeGreaterThan(0);
        expect(memory.oldSpaceMB).toBeGreaterThan(1);
        expect(memory.newSpaceMB + memory.oldSpaceMB).toBeLessThanOrEqual(memory.heapMB + 0.1);
        expect(memory.externalMB).toBeGreaterThan(0);
        expect(memory.otherMB).toBeCloseTo(memory.rssMB - memory.heapMB - memory.externalMB, 0);
        expect(memory.rssMB).toBeGreaterThan(memory.heapMB);
      }
      // The peak read is the one with the highest RSS, and no higher than the peak sampled from /proc.
      expect(atPeak.rssMB).toBeLessThanOrEqual(row.rssPeakMB);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
