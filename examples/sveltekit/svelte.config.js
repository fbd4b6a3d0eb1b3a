// SvelteKit config. KIT_OUT moves both SvelteKit's output and adapter-node's
// server elsewhere (the tests build into .test-build/<id>/ so that builds
// running side by side never share a folder).
import adapter from '@sveltejs/adapter-node';

const out = process.env.KIT_OUT;

/** @type {import('@sveltejs/kit').Config} */
export default {
  kit: {
    adapter: adapter({ out: out ? `${out}/build` : 'build' }),
    outDir: out ? `${out}/kit` : '.svelte-kit',
  },
};
