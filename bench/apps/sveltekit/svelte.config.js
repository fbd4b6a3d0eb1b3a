// The SvelteKit bench app: adapter-node, everything under build/ (bench/apps/.gitignore).
import adapter from '@sveltejs/adapter-node';

/** @type {import('@sveltejs/kit').Config} */
export default {
  kit: { adapter: adapter({ out: 'build/server' }), outDir: 'build/kit' },
};
