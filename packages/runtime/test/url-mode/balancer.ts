import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A round-robin reverse proxy on loopback: the one public origin of several server instances, so
// consecutive requests (MCP rounds, the connect visit, the callback) land on different instances.

export interface Balancer {
  readonly url: string;
  /** Instances to spread requests over, by their origin; set once they listen. */
  readonly targets: string[];
  close(): Promise<void>;
}

export async function startBalancer(): Promise<Balancer> {
  const targets: string[] = [];
  let turn = 0;
  const server: Server = createServer((req, res) => {
    const target = new URL(targets[turn++ % targets.length] ?? 'http://127.0.0.1:9');
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    targets,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
