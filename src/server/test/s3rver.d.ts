/** The part of s3rver (a dev dependency with no types of its own) that the tests use. */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    configureBuckets?: { name: string }[];
  }

  class S3rver {
    constructor(options: S3rverOptions);
    /** The filesystem store behind the server (its methods are replaced in tests). */
    store: Record<string, unknown>;
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
  export default S3rver;
}
