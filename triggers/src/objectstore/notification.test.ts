import { describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime } from '../runtime/create.js';
import type { ObjectStoreEvent, ObjectStoreEventType } from '../types.js';
import { parseObjectNotification } from './notification.js';

/** A record shaped like the example in AWS's "Event message structure" documentation. */
function awsRecord(eventName: string, key: string, extra: { size?: number; eTag?: string; bucket?: string } = {}) {
  return {
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    awsRegion: 'us-west-2',
    eventTime: '1970-01-01T00:00:00.000Z',
    eventName,
    userIdentity: { principalId: 'AIDAJDPLRKLG7UEXAMPLE' },
    requestParameters: { sourceIPAddress: '127.0.0.1' },
    responseElements: {
      'x-amz-request-id': 'C3D13FE58DE4C810',
      'x-amz-id-2': 'FMyUVURIY8/IgAtTv8xRjskZQpcIZ9KG4V5Wp6S7S/JRWeUWerMUE5JgHvANOjpD',
    },
    s3: {
      s3SchemaVersion: '1.0',
      configurationId: 'testConfigRule',
      bucket: {
        name: extra.bucket ?? 'amzn-s3-demo-bucket',
        ownerIdentity: { principalId: 'A3NL1KOZZKExample' },
        arn: 'arn:aws:s3:::amzn-s3-demo-bucket',
      },
      object: {
        key,
        ...(extra.size === undefined ? {} : { size: extra.size }),
        ...(extra.eTag === undefined ? {} : { eTag: extra.eTag }),
        versionId: '096fKKXTRTtl3on89fVO.nfljtsv6qko',
        sequencer: '0055AED6DCD90281E5',
      },
    },
  };
}

describe('S3 event notifications', () => {
  it('map event names onto the five event types and URL-decode keys', () => {
    const notices = parseObjectNotification({
      Records: [
        awsRecord('ObjectCreated:Put', 'photos/Happy+Face%C3%A9.jpg', {
          size: 1024,
          eTag: 'd41d8cd98f00b204e9800998ecf8427e',
        }),
        awsRecord('s3:ObjectCreated:Copy', 'a.txt', { size: 1, eTag: 'e1' }),
        awsRecord('ObjectCreated:CompleteMultipartUpload', 'big.bin', { size: 9, eTag: 'e2-2' }),
        awsRecord('ObjectCreated:Post', 'form.bin', { size: 2, eTag: 'e3' }),
        awsRecord('ObjectRemoved:DeleteMarkerCreated', 'old%2Bfile.txt'),
        awsRecord('ObjectRestore:Completed', 'ignored.txt'),
      ],
    });
    expect(notices.map((n) => n.type)).toEqual([
      'object:create:put',
      'object:create:copy',
      'object:create:multipart',
      'object:create',
      'object:delete',
    ]);
    expect(notices[0]!.event).toEqual({
      bucket: 'amzn-s3-demo-bucket',
      action: 'create',
      object: {
        key: 'photos/Happy Faceé.jpg',
        size: 1024,
        etag: 'd41d8cd98f00b204e9800998ecf8427e',
        uploadedAt: new Date(0),
      },
    });
    expect(notices[4]!.event).toMatchObject({ action: 'delete', object: { key: 'old+file.txt', size: 0, etag: '' } });
  });

  it('accept JSON text, ignore test events, and reject what is not a notification', () => {
    expect(
      parseObjectNotification(
        JSON.stringify({ Records: [awsRecord('ObjectCreated:Put', 'k', { size: 1, eTag: 'e' })] }),
      ),
    ).toHaveLength(1);
    expect(parseObjectNotification({ Service: 'Amazon S3', Event: 's3:TestEvent', Bucket: 'b' })).toEqual([]);
    expect(() => parseObjectNotification('{nope')).toThrow(
      expect.objectContaining({ code: 'OBJECTSTORE_INVALID_NOTIFICATION' }),
    );
    expect(() => parseObjectNotification({ Records: [{ eventName: 'ObjectCreated:Put', s3: {} }] })).toThrow(
      /bucket\.name is missing/,
    );
  });
});

describe('objectstore triggers', () => {
  function setup(events: readonly ObjectStoreEventType[], filters: { prefix?: string; suffix?: string } = {}) {
    const seen: ObjectStoreEvent[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      objectStore: { path: '/hooks/s3', queue: 's3-events' },
      triggers: {
        images: defineTrigger({
          source: { type: 'objectstore', bucket: 'amzn-s3-demo-bucket', events, ...filters },
          config: { retries: 0 },
          handle: (event) => void seen.push(event),
        }),
      },
    });
    return { runtime, seen };
  }

  it('filter by bucket, event type, prefix and suffix; object:create covers put, copy and multipart', async () => {
    const { runtime, seen } = setup(['object:create'], { prefix: 'photos/', suffix: '.jpg' });
    await runtime.dispatchObjectNotification({
      Records: [
        awsRecord('ObjectCreated:Put', 'photos/a.jpg', { size: 1, eTag: 'e' }),
        awsRecord('ObjectCreated:CompleteMultipartUpload', 'photos/b.jpg', { size: 1, eTag: 'e' }),
        awsRecord('ObjectCreated:Put', 'docs/a.jpg', { size: 1, eTag: 'e' }),
        awsRecord('ObjectCreated:Put', 'photos/a.png', { size: 1, eTag: 'e' }),
        awsRecord('ObjectCreated:Put', 'photos/c.jpg', { size: 1, eTag: 'e', bucket: 'other' }),
        awsRecord('ObjectRemoved:Delete', 'photos/a.jpg'),
      ],
    });
    expect(seen.map((e) => e.object.key)).toEqual(['photos/a.jpg', 'photos/b.jpg']);
    const only = setup(['object:create:copy', 'object:delete']);
    await only.runtime.dispatchObjectNotification({
      Records: [
        awsRecord('ObjectCreated:Put', 'x', { size: 1, eTag: 'e' }),
        awsRecord('ObjectCreated:Copy', 'y', { size: 1, eTag: 'e' }),
        awsRecord('ObjectRemoved:Delete', 'z'),
      ],
    });
    expect(only.seen.map((e) => [e.action, e.object.key])).toEqual([
      ['create', 'y'],
      ['delete', 'z'],
    ]);
  });

  it('arrive through the webhook path and through a queue', async () => {
    const { runtime, seen } = setup(['object:create:put']);
    const body = JSON.stringify({ Records: [awsRecord('ObjectCreated:Put', 'via/webhook', { size: 3, eTag: 'e' })] });
    const response = await runtime.fetch(
      new Request('http://localhost/hooks/s3', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(response?.status).toBe(200);
    await runtime.start();
    await runtime
      .queue('s3-events')
      .send({ Records: [awsRecord('ObjectCreated:Put', 'via/queue', { size: 3, eTag: 'e' })] });
    for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.map((e) => e.object.key)).toEqual(['via/webhook', 'via/queue']);
    await runtime.stop();
  }, 15_000);
});
