// The bench suite's task ids in suite order (`/bench/tasks/index.json`): what
// the Bench page's worker selects from before it fetches the tasks a run
// takes, one file each (./[id].json.ts).
import type { APIRoute } from 'astro';
import suiteData from '../../../../bench/tasks/suite.json';
import { parseSuite } from '../../../bench/tasks.ts';

export const GET: APIRoute = () =>
  new Response(JSON.stringify(parseSuite(suiteData).tasks.map((t) => t.id)), { headers: { 'content-type': 'application/json' } });
