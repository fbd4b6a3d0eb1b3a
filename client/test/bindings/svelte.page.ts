/** Svelte test page: mounts `Status.svelte` (compiled by the test with `svelte/compiler`). */
import { mount } from 'svelte';
import Status from './Status.svelte';
import { expose } from './page-common.js';

expose();
mount(Status, { target: document.getElementById('app')! });
