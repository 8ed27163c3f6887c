/**
 * Gives a TFLite model the `TFLITE_METADATA` block that MediaPipe Tasks requires before it accepts
 * a float32 image input: RGB image properties and the normalisation (mean, std) of the input.
 *
 * Why by hand: `@mediapipe/face_detection` ships `face_detection_short_range.tflite` without
 * metadata, and no npm or Debian package ships a model that has it. The metadata itself is built
 * with the `flatbuffers` Builder following the field slots of tflite-support's
 * `metadata_schema.fbs` (Apache-2.0). The model is then rewritten as a new root `Model` table, a new
 * `buffers` and `metadata` vector and the metadata buffer, placed in front of the untouched original
 * bytes: every flatbuffer offset points forward, so the old objects stay reachable from the new
 * prefix. The prefix is padded to 64 bytes so that the old tensor data keeps its alignment.
 */
import * as flatbuffers from 'flatbuffers';

/** Where the interesting parts of a TFLite `Model` flatbuffer are (absolute byte positions). */
export interface TfliteLayout {
  version: number;
  operatorCodes: number;
  subgraphs: number;
  description: number;
  /** Absolute positions of each `Buffer` table. */
  buffers: number[];
  metadataBuffer: number;
  /** Absolute positions of each `Metadata` table. */
  metadata: number[];
  signatureDefs: number;
  /** Output tensors of the first subgraph: the metadata needs one entry per output. */
  numOutputs: number;
}

export interface NormalizationMetadata {
  mean: number;
  std: number;
  /** The model's name inside the metadata. */
  name: string;
}

const METADATA_NAME = 'TFLITE_METADATA';

/**
 * Builds the `ModelMetadata` flatbuffer (file identifier `M001`) for one RGB image input.
 *
 * @example
 * const meta = buildMetadata({ mean: 127.5, std: 127.5, name: 'face_detector' }, 2);
 */
export function buildMetadata(norm: NormalizationMetadata, numOutputs: number): Uint8Array {
  const b = new flatbuffers.Builder(256);
  const floatVector = (v: number) => {
    b.startVector(4, 1, 4);
    b.addFloat32(v);
    return b.endVector();
  };
  const offsetVector = (items: number[]) => {
    b.startVector(4, items.length, 4);
    for (let i = items.length - 1; i >= 0; i--) b.addOffset(items[i]!);
    return b.endVector();
  };
  // NormalizationOptions { mean:[float] (0), std:[float] (1) }
  const meanOff = floatVector(norm.mean);
  const stdOff = floatVector(norm.std);
  b.startObject(2);
  b.addFieldOffset(0, meanOff, 0);
  b.addFieldOffset(1, stdOff, 0);
  const normOff = b.endObject();
  // ProcessUnit { options_type:ubyte (0) = 1 NormalizationOptions, options (1) }
  b.startObject(2);
  b.addFieldInt8(0, 1, 0);
  b.addFieldOffset(1, normOff, 0);
  const processUnits = offsetVector([b.endObject()]);
  // ImageProperties { color_space:byte (0) = 1 RGB, default_size (1) }
  b.startObject(2);
  b.addFieldInt8(0, 1, 0);
  const imageProps = b.endObject();
  // Content { content_properties_type:ubyte (0) = 2 ImageProperties, content_properties (1), range (2) }
  b.startObject(3);
  b.addFieldInt8(0, 2, 0);
  b.addFieldOffset(1, imageProps, 0);
  const content = b.endObject();
  const inputName = b.createString('image');
  // TensorMetadata { name(0), description(1), dimension_names(2), content(3), process_units(4), … }
  b.startObject(7);
  b.addFieldOffset(0, inputName, 0);
  b.addFieldOffset(3, content, 0);
  b.addFieldOffset(4, processUnits, 0);
  const inputs = offsetVector([b.endObject()]);
  const outputTables: number[] = [];
  for (let i = 0; i < numOutputs; i++) {
    b.startObject(7);
    outputTables.push(b.endObject());
  }
  const outputs = offsetVector(outputTables);
  // SubGraphMetadata { name(0), description(1), input_tensor_metadata(2), output_tensor_metadata(3), … }
  b.startObject(7);
  b.addFieldOffset(2, inputs, 0);
  b.addFieldOffset(3, outputs, 0);
  const subgraphs = offsetVector([b.endObject()]);
  const modelName = b.createString(norm.name);
  const minParser = b.createString('1.0.0');
  // ModelMetadata { name(0), description(1), version(2), subgraph_metadata(3), author(4), license(5),
  //                 associated_files(6), min_parser_version(7) }
  b.startObject(8);
  b.addFieldOffset(0, modelName, 0);
  b.addFieldOffset(3, subgraphs, 0);
  b.addFieldOffset(7, minParser, 0);
  b.finish(b.endObject(), 'M001');
  return b.asUint8Array();
}

/** A minimal flatbuffer table reader over raw bytes (the generated TFLite classes are not shipped). */
class Table {
  constructor(
    readonly bb: flatbuffers.ByteBuffer,
    readonly pos: number,
  ) {}

  /** Absolute position of field `i`'s slot, or 0 when absent. */
  slot(i: number): number {
    const off = this.bb.__offset(this.pos, 4 + 2 * i);
    return off ? this.pos + off : 0;
  }
  table(i: number): Table | undefined {
    const s = this.slot(i);
    return s ? new Table(this.bb, this.bb.__indirect(s)) : undefined;
  }
  tables(i: number): Table[] {
    const s = this.slot(i);
    if (!s) return [];
    const vec = this.bb.__vector(s);
    const n = this.bb.__vector_len(s);
    return Array.from({ length: n }, (_, k) => new Table(this.bb, this.bb.__indirect(vec + 4 * k)));
  }
  vectorPos(i: number): { start: number; length: number } | undefined {
    const s = this.slot(i);
    if (!s) return undefined;
    return { start: this.bb.__vector(s), length: this.bb.__vector_len(s) };
  }
  uint8(i: number, dflt = 0): number {
    const s = this.slot(i);
    return s ? this.bb.readUint8(s) : dflt;
  }
  uint32(i: number, dflt = 0): number {
    const s = this.slot(i);
    return s ? this.bb.readUint32(s) : dflt;
  }
  string(i: number): string | undefined {
    const s = this.slot(i);
    return s ? (this.bb.__string(s) as string) : undefined;
  }
  floats(i: number): number[] {
    const v = this.vectorPos(i);
    if (!v) return [];
    return Array.from({ length: v.length }, (_, k) => this.bb.readFloat32(v.start + 4 * k));
  }
}

function rootTable(bytes: Uint8Array): Table {
  const bb = new flatbuffers.ByteBuffer(bytes);
  return new Table(bb, bb.readUint32(0));
}

/**
 * Reads where a TFLite model's top-level parts are, as absolute byte positions.
 *
 * @example
 * const layout = readModelLayout(readFileSync('model.tflite'));
 * layout.numOutputs; // 2 for the face detector
 */
export function readModelLayout(model: Uint8Array): TfliteLayout {
  if (model.length < 8 || new TextDecoder().decode(model.subarray(4, 8)) !== 'TFL3') {
    throw new Error('not a TFLite model: the file identifier TFL3 is missing');
  }
  const root = rootTable(model);
  const abs = (i: number) => {
    const s = root.slot(i);
    return s ? s + root.bb.readUint32(s) : 0;
  };
  const firstSubgraph = root.tables(2)[0];
  if (!firstSubgraph) throw new Error('TFLite model has no subgraph');
  return {
    version: root.uint32(0, 3),
    operatorCodes: abs(1),
    subgraphs: abs(2),
    description: abs(3),
    buffers: root.tables(4).map((t) => t.pos),
    metadataBuffer: abs(5),
    metadata: root.tables(6).map((t) => t.pos),
    signatureDefs: abs(7),
    numOutputs: firstSubgraph.vectorPos(2)?.length ?? 0,
  };
}

/** The names of the model's `metadata` entries and the buffer each points at. */
export function listModelMetadata(model: Uint8Array): { name: string; buffer: number }[] {
  const root = rootTable(model);
  return root.tables(6).map((t) => ({ name: t.string(0) ?? '', buffer: t.uint32(1) }));
}

/** The bytes of buffer `index` of a TFLite model. */
export function readModelBuffer(model: Uint8Array, index: number): Uint8Array {
  const root = rootTable(model);
  const buffer = root.tables(4)[index];
  if (!buffer) throw new Error(`TFLite model has no buffer ${index}`);
  const data = buffer.vectorPos(0);
  return data ? model.subarray(data.start, data.start + data.length) : new Uint8Array();
}

/** What a `TFLITE_METADATA` block says about the first input: read back to prove the file parses. */
export interface ParsedImageMetadata {
  name: string;
  minParserVersion: string;
  inputName: string;
  /** 1 is RGB in `metadata_schema.fbs`. */
  colorSpace: number;
  mean: number[];
  std: number[];
  outputCount: number;
}

/**
 * Finds the `TFLITE_METADATA` entry of a model and reads the image input's normalisation back.
 *
 * @example
 * readImageMetadata(readFileSync('public/models/face_detector.tflite')).mean; // [127.5]
 */
export function readImageMetadata(model: Uint8Array): ParsedImageMetadata | undefined {
  const entry = listModelMetadata(model).find((m) => m.name === METADATA_NAME);
  if (!entry) return undefined;
  const bytes = readModelBuffer(model, entry.buffer);
  const bb = new flatbuffers.ByteBuffer(bytes);
  if (!bb.__has_identifier('M001')) throw new Error('TFLITE_METADATA buffer lacks identifier M001');
  const meta = new Table(bb, bb.readInt32(bb.position()) + bb.position());
  const subgraph = meta.tables(3)[0];
  const input = subgraph?.tables(2)[0];
  const content = input?.table(3);
  const unit = input?.tables(4)[0];
  if (!subgraph || !input || !content || !unit || unit.uint8(0) !== 1) {
    throw new Error('TFLITE_METADATA has no image input with NormalizationOptions');
  }
  const norm = unit.table(1);
  return {
    name: meta.string(0) ?? '',
    minParserVersion: meta.string(7) ?? '',
    inputName: input.string(0) ?? '',
    colorSpace: content.uint8(0) === 2 ? (content.table(1)?.uint8(0) ?? 0) : 0,
    mean: norm?.floats(0) ?? [],
    std: norm?.floats(1) ?? [],
    outputCount: subgraph.tables(3).length,
  };
}

/**
 * Returns a new model: the original with a `TFLITE_METADATA` entry and its buffer added.
 * Refuses a model that already has one, so running the build twice cannot stack blocks.
 *
 * @example
 * const out = addImageMetadata(original, { mean: 127.5, std: 127.5, name: 'face_detector' });
 */
export function addImageMetadata(model: Uint8Array, norm: NormalizationMetadata): Uint8Array {
  const m = readModelLayout(model);
  if (listModelMetadata(model).some((e) => e.name === METADATA_NAME)) {
    throw new Error('the model already has TFLITE_METADATA');
  }
  const meta = buildMetadata(norm, m.numOutputs);
  const name = new TextEncoder().encode(METADATA_NAME);
  const align4 = (p: number) => (p + 3) & ~3;

  // Lay the prefix out first: every position is known before anything is written.
  let pos = 8; // root uoffset + "TFL3"
  const modelVt = pos;
  pos = align4(pos + 4 + 2 * 8);
  const modelTbl = pos;
  pos += 4 + 4 * 8;
  const bufVec = pos;
  pos += 4 + 4 * (m.buffers.length + 1);
  const metaVec = pos;
  pos += 4 + 4 * (m.metadata.length + 1);
  const metaVt = pos;
  pos = align4(pos + 4 + 2 * 2);
  const metaTbl = pos;
  pos += 4 + 4 + 4; // soffset, name uoffset, buffer index
  const nameStr = pos;
  pos = align4(pos + 4 + name.length + 1);
  const bufVt = pos;
  pos = align4(pos + 4 + 2 * 1);
  const bufTbl = pos;
  pos += 4 + 4;
  while ((pos + 4) % 16) pos += 4; // the metadata bytes themselves 16-aligned
  const dataVec = pos;
  pos += 4 + meta.length;
  const prefix = Math.ceil(pos / 64) * 64;

  const out = new Uint8Array(prefix + model.length);
  const view = new DataView(out.buffer);
  const u32 = (p: number, v: number) => view.setUint32(p, v >>> 0, true);
  const i32 = (p: number, v: number) => view.setInt32(p, v, true);
  const u16 = (p: number, v: number) => view.setUint16(p, v, true);
  const moved = (oldAbs: number) => prefix + oldAbs;

  u32(0, modelTbl);
  out.set(model.subarray(4, 8), 4);

  // Model table: version, operator_codes, subgraphs, description, buffers, metadata_buffer,
  // metadata, signature_defs.
  u16(modelVt, 4 + 2 * 8);
  u16(modelVt + 2, 4 + 4 * 8);
  i32(modelTbl, modelTbl - modelVt);
  const fields: (number | 'version' | 'buffers' | 'metadata')[] = [
    'version',
    m.operatorCodes,
    m.subgraphs,
    m.description,
    'buffers',
    m.metadataBuffer,
    'metadata',
    m.signatureDefs,
  ];
  fields.forEach((v, i) => {
    const s = modelTbl + 4 + 4 * i;
    let present = true;
    if (v === 'version') u32(s, m.version);
    else if (v === 'buffers') u32(s, bufVec - s);
    else if (v === 'metadata') u32(s, metaVec - s);
    else if (v) u32(s, moved(v) - s);
    else present = false;
    u16(modelVt + 4 + 2 * i, present ? 4 + 4 * i : 0);
  });

  u32(bufVec, m.buffers.length + 1);
  m.buffers.forEach((b, k) => u32(bufVec + 4 + 4 * k, moved(b) - (bufVec + 4 + 4 * k)));
  u32(bufVec + 4 + 4 * m.buffers.length, bufTbl - (bufVec + 4 + 4 * m.buffers.length));

  u32(metaVec, m.metadata.length + 1);
  m.metadata.forEach((t, k) => u32(metaVec + 4 + 4 * k, moved(t) - (metaVec + 4 + 4 * k)));
  u32(metaVec + 4 + 4 * m.metadata.length, metaTbl - (metaVec + 4 + 4 * m.metadata.length));

  // Metadata { name:string (0), buffer:uint (1) }
  u16(metaVt, 8);
  u16(metaVt + 2, 12);
  u16(metaVt + 4, 4);
  u16(metaVt + 6, 8);
  i32(metaTbl, metaTbl - metaVt);
  u32(metaTbl + 4, nameStr - (metaTbl + 4));
  u32(metaTbl + 8, m.buffers.length);
  u32(nameStr, name.length);
  out.set(name, nameStr + 4);

  // Buffer { data:[ubyte] (0) }
  u16(bufVt, 6);
  u16(bufVt + 2, 8);
  u16(bufVt + 4, 4);
  i32(bufTbl, bufTbl - bufVt);
  u32(bufTbl + 4, dataVec - (bufTbl + 4));
  u32(dataVec, meta.length);
  out.set(meta, dataVec + 4);

  out.set(model, prefix);
  return out;
}
