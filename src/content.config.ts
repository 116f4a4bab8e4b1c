// The spec pages: every Markdown file under the top-level spec/ folder.
import { defineCollection, z } from 'astro:content';
import { glob } from 'astro/loaders';

const spec = defineCollection({
  loader: glob({ pattern: '**/*.md', base: './spec' }),
  schema: z.object({
    title: z.string(),
    format: z.string().optional(),
    version: z.union([z.string(), z.number()]).optional(),
  }),
});

export const collections = { spec };
