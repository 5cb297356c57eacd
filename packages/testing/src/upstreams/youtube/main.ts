import { parseReplayDirs } from './replay-dirs';
import { startFakeYouTube } from './server';

// Standalone fake upstream, so `npm start` can run offline with YOUTUBE_UPSTREAM_URL pointing here.
const replayDirs = parseReplayDirs(process.env.YOUTUBE_REPLAY_DIRS || undefined);
const fake = await startFakeYouTube({
  port: Number(process.env.YOUTUBE_UPSTREAM_PORT ?? 8090),
  host: process.env.YOUTUBE_UPSTREAM_HOST ?? '127.0.0.1',
  replayDirs,
});

console.log(`fake YouTube upstream listening on ${fake.url}`);
console.log(`replaying ${fake.load.recordings} recordings from ${replayDirs.join(':')}`);
for (const { file, reason } of fake.load.skipped) console.log(`skipped ${file}: ${reason}`);
for (const { file, reason } of fake.load.unparsable) console.warn(`UNPARSABLE ${file}: ${reason}`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
