// BullMQ, the peer of Pacer's delayed-delivery rows: one Node process driven by the Java harness (BullMqPeer) over
// stdin/stdout, one JSON command per line and one JSON reply per line. The harness starts one process for the
// producers (a Queue per queue name, all on one ioredis connection) and, for the delivery rows, a second one for the
// Worker, as BullMQ applications run them. Usage: node peer.mjs <redis port>
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';

const require = createRequire(import.meta.url);
const port = Number(process.argv[2]);
const connectionOptions = { host: '127.0.0.1', port, maxRetriesPerRequest: null };

// Epoch microseconds with sub-millisecond resolution, the clock of every due time and delivery in this process.
const nowMicros = () => Math.round((performance.timeOrigin + performance.now()) * 1000);
const sleep = (millis) => new Promise((resolve) => setTimeout(resolve, Math.max(0, millis)));
const cpuMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

let connection;
const queues = new Map();

function queue(name) {
  if (!connection) {
    connection = new IORedis(connectionOptions);
  }
  let existing = queues.get(name);
  if (!existing) {
    existing = new Queue(name, { connection });
    queues.set(name, existing);
  }
  return existing;
}

// A BullMQ delay is whole milliseconds: rounded up, so a job is never due before the harness's due time.
function delayUntil(dueMicros) {
  return Math.max(0, Math.ceil((dueMicros - nowMicros()) / 1000));
}

// Jobs of the delivery rows carry "<due epoch micros>:<sequence>", as the Redisson peer's messages do.
const deliveryOptions = (delay) => ({ delay, removeOnComplete: true });

// --- producers ---------------------------------------------------------------------------------------------------

// Closed loop: `producers` concurrent loops call queue.add back to back; calls that start and end inside the
// measurement window are counted and timed (microseconds), as the Java harness's LoadRunner does.
async function schedule({ queue: name, producers, leadInMillis, measureMillis, delayMillis }) {
  const target = queue(name);
  const start = performance.now() + leadInMillis;
  const end = start + measureMillis;
  const latencies = [];
  let errors = 0;
  let firstError = null;
  let cpuAtStart = 0;
  let cpuAtEnd = 0;
  const cpuClock = (async () => {
    await sleep(start - performance.now());
    cpuAtStart = cpuMicros();
    await sleep(end - performance.now());
    cpuAtEnd = cpuMicros();
  })();
  const loop = async (producer) => {
    let sequence = 0;
    for (let now = performance.now(); now < end; ) {
      const t0 = now;
      try {
        await target.add('m', `payload-${producer}-${sequence++}`, { delay: delayMillis });
        now = performance.now();
        if (t0 >= start && now <= end) {
          latencies.push(Math.round((now - t0) * 1000));
        }
      } catch (e) {
        now = performance.now();
        firstError ??= String(e);
        if (t0 >= start && now <= end) {
          errors++;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: producers }, (_, producer) => loop(producer)));
  await cpuClock;
  return { calls: latencies.length + errors, errors, firstError, latencies, cpuMicros: cpuAtEnd - cpuAtStart };
}

let production = null;

// Starts `producers` loops adding jobs due now (the smallest BullMQ delay, 1 ms, so each goes through the delayed
// set as Pacer's messages go through its schedule) for `durationMillis`; answers at once.
function produce({ queue: name, producers, durationMillis, delayMillis }) {
  const target = queue(name);
  const end = performance.now() + durationMillis;
  const state = { count: 0, errors: 0, firstError: null, done: null };
  const loop = async (producer) => {
    let sequence = 0;
    while (performance.now() < end) {
      try {
        await target.add('m', `${nowMicros()}:${producer}-${sequence++}`, deliveryOptions(delayMillis));
        state.count++;
      } catch (e) {
        state.errors++;
        state.firstError ??= String(e);
      }
    }
  };
  state.done = Promise.all(Array.from({ length: producers }, (_, producer) => loop(producer)));
  production = state;
  return {};
}

function produced() {
  return { count: production.count, errors: production.errors, firstError: production.firstError };
}

async function awaitProduced() {
  await production.done;
  return produced();
}

// Schedules `messages` jobs due at random instants spread over `spreadMicros`, the first `leadMicros` from now, with
// `producers` concurrent loops; answers when all are stored.
async function spread({ queue: name, messages, producers, leadMicros, spreadMicros }) {
  const target = queue(name);
  const base = nowMicros() + leadMicros;
  const started = nowMicros();
  let next = 0;
  let errors = 0;
  let firstError = null;
  const loop = async () => {
    for (let sequence = next++; sequence < messages; sequence = next++) {
      const due = base + Math.floor(Math.random() * spreadMicros);
      try {
        await target.add('m', `${due}:${sequence}`, deliveryOptions(delayUntil(due)));
      } catch (e) {
        errors++;
        firstError ??= String(e);
      }
    }
  };
  await Promise.all(Array.from({ length: producers }, loop));
  return { baseMicros: base, startedMicros: started, scheduledByMicros: nowMicros(), errors, firstError };
}

// Stores `messages` jobs with the same payload, due in `delayMillis`, for the memory row (queue.addBulk in chunks:
// the stored jobs are the same as queue.add's).
async function fill({ queue: name, messages, payloadBytes, delayMillis, chunk }) {
  const target = queue(name);
  const payload = 'x'.repeat(payloadBytes);
  for (let first = 0; first < messages; first += chunk) {
    const jobs = [];
    for (let i = first; i < Math.min(messages, first + chunk); i++) {
      jobs.push({ name: 'm', data: payload, opts: { delay: delayMillis } });
    }
    await target.addBulk(jobs);
  }
  return {};
}

// --- worker ------------------------------------------------------------------------------------------------------

let worker = null;
const deliveries = { count: 0, early: 0, last: 0, lateness: [] };

async function work({ queue: name, concurrency }) {
  worker = new Worker(
    name,
    async (job) => {
      const now = nowMicros();
      const late = now - Number(job.data.substring(0, job.data.indexOf(':')));
      if (late < 0) {
        deliveries.early++;
      }
      deliveries.lateness.push(Math.max(0, late));
      deliveries.last = now;
      deliveries.count++;
    },
    { connection: connectionOptions, concurrency },
  );
  worker.on('error', (e) => console.error(`BullMQ worker: ${e}`));
  await worker.waitUntilReady();
  return {};
}

function delivered() {
  return { count: deliveries.count, early: deliveries.early, lastMicros: deliveries.last };
}

function lateness() {
  return { ...delivered(), lateness: deliveries.lateness };
}

function reset() {
  deliveries.count = 0;
  deliveries.early = 0;
  deliveries.last = 0;
  deliveries.lateness = [];
  return {};
}

// --- process -----------------------------------------------------------------------------------------------------

function cpu() {
  return { cpuMicros: cpuMicros() };
}

function versions() {
  return {
    node: process.versions.node,
    bullmq: require('bullmq/package.json').version,
    ioredis: require('ioredis/package.json').version,
  };
}

// Names of the Lua scripts BullMQ loads on a connection, by SHA1, to name EVALSHA calls in the census.
async function scripts() {
  await queue('bench-scripts').waitUntilReady();
  const names = {};
  for (const [name, script] of Object.entries(connection?.scriptsSet ?? {})) {
    names[script.sha] = name;
  }
  return { names };
}

async function close() {
  await worker?.close();
  worker = null;
  for (const open of queues.values()) {
    await open.close();
  }
  queues.clear();
  await connection?.quit();
  connection = null;
  return {};
}

const operations = {
  versions, cpu, schedule, produce, produced, awaitProduced, spread, fill, work, delivered, lateness, reset, scripts, close,
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const command = JSON.parse(line);
  let reply;
  try {
    const operation = operations[command.op];
    if (!operation) {
      throw new Error(`unknown operation ${command.op}`);
    }
    reply = { ok: true, ...(await operation(command)) };
  } catch (e) {
    reply = { ok: false, error: String(e?.stack ?? e) };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
}
await close();
process.exit(0);
