import { assertCronInterval, scheduleOf } from '../cron.js';
import { isTriggerDefinition } from '../define.js';
import { TriggerDefinitionError, TriggerError } from '../errors.js';
import type { ResolvedLimits } from '../limits.js';
import type { QueueSource, TriggerDefinition, WebhookSource } from '../types.js';

/** A definition under its name, with limits applied. */
export interface RegisteredTrigger {
  readonly name: string;
  readonly definition: TriggerDefinition;
}

/** Name lookups and routing tables built once from the triggers record. */
export class Registry {
  readonly all: RegisteredTrigger[] = [];
  private readonly byName = new Map<string, RegisteredTrigger>();
  private readonly consumers = new Map<string, RegisteredTrigger>();
  /** Event name → its subscribers (`config.events`), in definition order. */
  private readonly subscriptions = new Map<string, RegisteredTrigger[]>();
  /** path → method → trigger */
  readonly webhookRoutes = new Map<string, Map<string, RegisteredTrigger>>();

  constructor(triggers: Record<string, TriggerDefinition>, limits: ResolvedLimits) {
    if (typeof triggers !== 'object' || triggers === null || Array.isArray(triggers)) {
      throw new TriggerDefinitionError('triggers', 'expected a record of trigger name → defineTrigger(...) result');
    }
    for (const [name, definition] of Object.entries(triggers)) this.add(name, definition, limits);
    for (const trigger of this.all) {
      for (const event of trigger.definition.config?.events ?? []) {
        if (this.byName.has(event)) {
          throw new TriggerDefinitionError(
            `triggers.${trigger.name}.config.events`,
            `"${event}" is a trigger name; an event name must differ from every trigger name`,
          );
        }
        this.subscriptions.set(event, [...(this.subscriptions.get(event) ?? []), trigger]);
      }
    }
    const crons = this.ofType('scheduled').length;
    if (crons > limits.maxCronTriggers) {
      throw new TriggerDefinitionError(
        'triggers',
        `${crons} scheduled triggers exceed the limit of ${limits.maxCronTriggers} cron triggers per runtime (set limits.maxCronTriggers to change it)`,
        'TRIGGER_LIMIT_EXCEEDED',
      );
    }
  }

  /** The trigger called `name`. @throws {TriggerError} code `UNKNOWN_TRIGGER` */
  get(name: string): RegisteredTrigger {
    const trigger = this.byName.get(name);
    if (!trigger) {
      throw new TriggerError(`Unknown trigger "${name}"`, {
        code: 'UNKNOWN_TRIGGER',
        retryable: false,
        context: { trigger: name, known: [...this.byName.keys()] },
      });
    }
    return trigger;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The triggers subscribed to event `name` (`config.events`); empty when none. */
  subscribersOf(name: string): readonly RegisteredTrigger[] {
    return this.subscriptions.get(name) ?? [];
  }

  /** Event names with subscribers and their trigger names. */
  get events(): ReadonlyArray<{ event: string; subscribers: string[] }> {
    return [...this.subscriptions].map(([event, list]) => ({ event, subscribers: list.map((t) => t.name) }));
  }

  /** The consumer trigger of queue `queue`, if any. */
  consumerOf(queue: string): RegisteredTrigger | undefined {
    return this.consumers.get(queue);
  }

  ofType(type: TriggerDefinition['source']['type']): RegisteredTrigger[] {
    return this.all.filter((t) => t.definition.source.type === type);
  }

  private add(name: string, definition: TriggerDefinition, limits: ResolvedLimits): void {
    const path = `triggers.${name}`;
    if (!/^[A-Za-z0-9][\w.-]*$/.test(name)) {
      throw new TriggerDefinitionError(
        path,
        'trigger names use letters, digits, "-", "_" and "." and start with a letter or digit',
      );
    }
    if (!isTriggerDefinition(definition)) {
      throw new TriggerDefinitionError(path, 'expected the result of defineTrigger(...)');
    }
    if (definition.config.timeoutMs > limits.maxTimeoutMs) {
      throw new TriggerDefinitionError(
        `${path}.config.timeout`,
        `'${definition.config.timeout}' exceeds limits.maxTimeout of ${limits.maxTimeoutMs / 1000}s`,
        'TRIGGER_LIMIT_EXCEEDED',
      );
    }
    const source = definition.source;
    const registered = { name, definition };
    for (const control of ['rateLimit', 'debounce'] as const) {
      if (definition.config[control] && source.type !== 'queue') {
        throw new TriggerDefinitionError(
          `${path}.config.${control}`,
          `applies to queue triggers (a ${source.type} trigger can emit to a queue trigger that has it)`,
        );
      }
    }
    if (source.type === 'scheduled') {
      const field = `${path}.source.${source.every === undefined ? 'cron' : 'every'}`;
      assertCronInterval(scheduleOf(source, `${path}.source`), limits.minCronIntervalMs, field);
    } else if (source.type === 'queue') {
      this.addConsumer(path, registered, source, limits);
    } else if (source.type === 'webhook') {
      this.addRoutes(path, registered, source);
    }
    this.byName.set(name, registered);
    this.all.push(registered);
  }

  private addConsumer(path: string, trigger: RegisteredTrigger, source: QueueSource, limits: ResolvedLimits): void {
    const batchSize = source.batchSize ?? 10;
    if (batchSize > limits.maxBatchSize) {
      throw new TriggerDefinitionError(
        `${path}.source.batchSize`,
        `${batchSize} exceeds limits.maxBatchSize of ${limits.maxBatchSize}`,
        'TRIGGER_LIMIT_EXCEEDED',
      );
    }
    const existing = this.consumers.get(source.name);
    if (existing) {
      throw new TriggerDefinitionError(
        `${path}.source.name`,
        `queue '${source.name}' already has the consumer "${existing.name}"`,
      );
    }
    this.consumers.set(source.name, trigger);
  }

  private addRoutes(path: string, trigger: RegisteredTrigger, source: WebhookSource): void {
    const routes = this.webhookRoutes.get(source.path) ?? new Map<string, RegisteredTrigger>();
    for (const method of source.methods ?? ['POST']) {
      const existing = routes.get(method);
      if (existing) {
        throw new TriggerDefinitionError(
          `${path}.source.path`,
          `${method} ${source.path} is already handled by "${existing.name}"`,
        );
      }
      routes.set(method, trigger);
    }
    this.webhookRoutes.set(source.path, routes);
  }
}
