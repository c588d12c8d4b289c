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
  comfyuiReferenceWorkflow: setting(
    'LOOTSMITH_COMFYUI_REFERENCE_WORKFLOW',
    z.string().min(1).optional(),
    "a workflow used instead for icons when the game has art.references: the same placeholders, and a LoadImage node whose image is {{reference}} (an IP-Adapter's, say); Lootsmith uploads the references and names them there, the n-th {{reference}} the n-th reference (unset: references are not sent)",
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
  prepare({ o, fail }): { workflow: Workflow; referenceWorkflow?: Workflow } {
    const load = (option: 'comfyuiWorkflow' | 'comfyuiReferenceWorkflow', path: string) => {
      try {
        return loadWorkflow(path, option === 'comfyuiWorkflow' ? 'plain' : 'reference');
      } catch (err) {
        return fail(option, (err as Error).message);
      }
    };
    const workflow = load('comfyuiWorkflow', o.comfyuiWorkflow ?? DEFAULT_WORKFLOW);
    if (!o.comfyuiReferenceWorkflow) return { workflow };
    return { workflow, referenceWorkflow: load('comfyuiReferenceWorkflow', o.comfyuiReferenceWorkflow) };
  },
  open: (spec, endpoint) =>
    new ComfyImages(endpoint, spec.workflow, spec.paintSize as number, spec.model, spec.referenceWorkflow),
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
} satisfies ImageBackendDescription<
  'comfyui',
  typeof settings,
  { workflow: Workflow; referenceWorkflow?: Workflow }
>;
