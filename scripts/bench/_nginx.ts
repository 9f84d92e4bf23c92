import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * nginx as a reference proxy for `pnpm bench gateway`: one worker, a keep-alive pool to one
 * upstream, everything it writes (config, pid, logs, temp files) in a temp directory of its own.
 */

export const NGINX_INSTALL = 'apt-get install -y nginx-light';

/** nginx's binary (on PATH, else /usr/sbin/nginx), or null. */
export function nginxBinary(): string | null {
  for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean))
    if (existsSync(join(dir, 'nginx'))) return join(dir, 'nginx');
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : null;
}

/**
 * The whole configuration. Keep-alive both ways, as the Node proxies have it: `keepalive 64`
 * idle connections to the upstream over HTTP/1.1 (Connection cleared), and no cap on requests
 * per connection either side (nginx's default 1,000 would reconnect wrk's 64 connections every
 * few hundred milliseconds; Node never does).
 */
export function nginxConfig(dir: string, port: number, upstream: string): string {
  const { host } = new URL(upstream);
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  keepalive_requests 1000000;
  keepalive_timeout 72s;
  upstream booking {
    server ${host};
    keepalive 64;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://booking;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`;
}

export interface Nginx {
  url: string;
  /** The master's pid (its one worker is its child). */
  pid: number;
  stop(): Promise<void>;
}

/** Starts nginx in front of `upstream` on a loopback port; resolves once it answers. */
export async function startNginx(bin: string, upstream: string, port: number): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-nginx-'));
  // The worker runs as nobody and must enter the directory (mkdtemp makes it 0700).
  chmodSync(dir, 0o755);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, port, upstream));
  const child: ChildProcess = spawn(bin, ['-p', `${dir}/`, '-c', conf], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx exited with ${child.exitCode}\n${log}`);
    }
    const up = await fetch(`${url}/health/live`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('nginx did not answer within 10 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid as number,
    async stop() {
      // SIGQUIT: a graceful stop (workers finish, then exit).
      if (child.exitCode === null) child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
