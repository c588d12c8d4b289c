import { z } from 'zod';
import { setting } from '../../../setting-values.ts';
import type { ImageBackendDescription } from '../description.ts';
import { parsedBody } from '../probe.ts';
import { ComfyImages, DEFAULT_WORKFLOW, loadWorkflow, type Workflow } from './adapter.ts';

const settings = {
  comfyuiWorkflow: setting(
    'LOOTSMITH_COMFYUI_WORKFLOW',
    z.string().min(1).optional(),
    'an API-format ComfyUI workflow with {{prompt}}, {{negative_prompt}}, {{seed}}, {{width}}, {{height}} (and optionally {{steps}}, {{model}}) placeholders (default: the SD 1.5 example shipped in examples/)',
  ),
};

/** ComfyUI, running an API-format workflow whose placeholders Lootsmith fills. */
export const comfyui = {
  api: 'comfyui',
  name: 'ComfyUI',
  title: () => 'ComfyUI',
  auth: 'bearer',
  basePath: '',
  settings,
  help: {
    api: 'comfyui',
    model: 'the {{model}} of a ComfyUI workflow (default v1-5-pruned-emaonly-fp16.safetensors)',
    key: 'behind a proxy',
  },
  // The checkpoint ComfyUI's own example loads.
  defaults: {
    url: 'http://127.0.0.1:8188',
    model: 'v1-5-pruned-emaonly-fp16.safetensors',
    concurrency: 1,
    timeoutMs: 180_000,
    paintSize: 512,
  },
  prepare({ o, fail }): { workflow: Workflow } {
    try {
      return { workflow: loadWorkflow(o.comfyuiWorkflow ?? DEFAULT_WORKFLOW) };
    } catch (err) {
      return fail('comfyuiWorkflow', (err as Error).message);
    }
  },
  open: (spec, endpoint) => new ComfyImages(endpoint, spec.workflow, spec.paintSize as number, spec.model),
  async probe({ look, get, present, spec }) {
    if (!(await look('/system_stats'))) return false;
    const { workflow } = spec as typeof spec & { workflow?: Workflow };
    if (!workflow?.uses.has('model')) return true;
    const info = await get('/object_info/CheckpointLoaderSimple');
    const names =
      info instanceof Error
        ? []
        : ((
            parsedBody(info) as {
              CheckpointLoaderSimple?: { input?: { required?: { ckpt_name?: [string[]] } } };
            }
          )?.CheckpointLoaderSimple?.input?.required?.ckpt_name?.[0] ?? []);
    return present(names, 'put the checkpoint in ComfyUI/models/checkpoints');
  },
} satisfies ImageBackendDescription<'comfyui', typeof settings, { workflow: Workflow }>;
