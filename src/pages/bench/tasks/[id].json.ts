// One task of the bench suite as its own file (`/bench/tasks/<id>.json`: a
// suite of that task alone), so the Bench page's worker fetches the tasks a
// run takes, not the whole suite (the quick set is about 70 kB of the
// suite's 2.4 MB). Written at build time from bench/tasks/suite.json.
import type { APIRoute, GetStaticPaths } from 'astro';
import suiteData from '../../../../bench/tasks/suite.json';
import { parseSuite, type BenchTask } from '../../../bench/tasks.ts';

export const getStaticPaths = (() => parseSuite(suiteData).tasks.map((task) => ({ params: { id: task.id }, props: { task } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ task: BenchTask }> = ({ props }) =>
  new Response(JSON.stringify({ version: 1, tasks: [props.task] }), { headers: { 'content-type': 'application/json' } });
