<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AnswerView</name>
    <message>
        <source>Choose a preset or describe a workload.</source>
        <translation>请选择预设，或描述一个工作负载。</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>每个 GPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>占用</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Per device</source>
        <translation>每个设备</translation>
    </message>
    <message>
        <source>{usable} usable ({memory} less {headroom} headroom)</source>
        <translation>可用 {usable}（{memory} 减去 {headroom} 余量）</translation>
    </message>
    <message>
        <source> per GPU</source>
        <translation>（每个 GPU）</translation>
    </message>
    <message>
        <source>Runs on the CPU: {peak} of system memory at the peak</source>
        <translation>在 CPU 上运行：峰值占用 {peak} 系统内存</translation>
    </message>
    <message>
        <source>Fits on {gpu}: {peak}{per_gpu} of {usable}</source>
        <translation>{gpu} 放得下：需要 {peak}{per_gpu}，{usable}</translation>
    </message>
    <message>
        <source>Fits on {gpu} only by using the headroom: needs {peak}{per_gpu}, {usable}</source>
        <translation>{gpu} 需动用余量才放得下：需要 {peak}{per_gpu}，{usable}</translation>
    </message>
    <message>
        <source>Does not fit on {gpu}: needs {peak}{per_gpu}, {usable}</source>
        <translation>{gpu} 放不下：需要 {peak}{per_gpu}，{usable}</translation>
    </message>
    <message>
        <source>For the previous workload — {verdict}</source>
        <translation>针对上一个工作负载：{verdict}</translation>
    </message>
    <message>
        <source>Judged with {headroom} of the card&apos;s memory kept free for what the estimate does not see (other programs on the card, fragmentation, the estimate&apos;s own error): {why}. Change it in File → Fit headroom…</source>
        <translation>判断时预留了显卡 {headroom} 的显存，用于估算未涵盖的部分（显卡上的其他程序、显存碎片、估算本身的误差）：{why}。可在“文件 → 显存余量…”中修改。</translation>
    </message>
    <message>
        <source> ({n:,} trainable)</source>
        <translation>（其中可训练 {n:,} 个）</translation>
    </message>
    <message>
        <source> — {note}</source>
        <translation>——{note}</translation>
    </message>
    <message>
        <source>{model}: {params:,} parameters{trainable} · length {seq:,} · {method} · attention {attention}</source>
        <translation>{model}：{params:,} 个参数{trainable} · 序列长度 {seq:,} · {method} · 注意力 {attention}</translation>
    </message>
    <message>
        <source>Attention: {implementation}, {why}</source>
        <translation>注意力：{implementation}，{why}</translation>
    </message>
    <message>
        <source>{gpu}: {usable} usable of {memory}</source>
        <translation>{gpu}：{memory} 中可用 {usable}</translation>
    </message>
    <message>
        <source>Expected error of the peak: none measured here: {why}</source>
        <translation>峰值的预期误差：此处没有实测误差范围：{why}</translation>
    </message>
    <message>
        <source>Expected error of the peak: no measured band for GPUs yet</source>
        <translation>峰值的预期误差：暂无 GPU 的实测误差范围</translation>
    </message>
    <message>
        <source>Expected error of the peak: {why}</source>
        <translation>峰值的预期误差：{why}</translation>
    </message>
    <message>
        <source>Expected error of the peak: ±{median:.1f} % (held-out median), worst {worst:+.0f} %, from {benchmark} over {cases} cases</source>
        <translation>峰值的预期误差：±{median:.1f} %（留出集中位数），最差 {worst:+.0f} %，来自 {benchmark} 的 {cases} 个用例</translation>
    </message>
    <message>
        <source>Each case&apos;s estimate against the memory PyTorch&apos;s caching allocator reserved in a real run (torch.cuda.max_memory_reserved, which leaves out the CUDA context); nothing in the estimate is fitted on these runs; measured {date} on {machine}</source>
        <translation>将每个用例的估算值与实际运行中 PyTorch 缓存分配器预留的显存（torch.cuda.max_memory_reserved，不含 CUDA 上下文）进行比较；估算中没有任何部分基于这些运行拟合；于 {date} 在 {machine} 上实测</translation>
    </message>
    <message>
        <source>Each case&apos;s estimate against the peak memory of a real run, with what the estimate fits taken from other model families only; measured {date} on {machine}</source>
        <translation>将每个用例的估算值与实际运行的峰值内存进行比较，估算中拟合的部分仅取自其他模型系列；于 {date} 在 {machine} 上实测</translation>
    </message>
    <message>
        <source>time is estimated for a GPU only</source>
        <translation>仅对 GPU 估算时间</translation>
    </message>
    <message>
        <source>Time per step: not estimated — {why}</source>
        <translation>单步时间：未估算——{why}</translation>
    </message>
    <message>
        <source> · {n:,.0f} tokens/s</source>
        <translation> · {n:,.0f} tokens/s</translation>
    </message>
    <message>
        <source>matmuls</source>
        <translation>矩阵乘法</translation>
    </message>
    <message>
        <source>convolutions</source>
        <translation>卷积</translation>
    </message>
    <message>
        <source>other operators</source>
        <translation>其他算子</translation>
    </message>
    <message>
        <source> ({share:.0%} of the matmuls&apos; and convolutions&apos; time set by their bytes)</source>
        <translation>（矩阵乘法和卷积的耗时中有 {share:.0%} 由访存字节量决定）</translation>
    </message>
    <message>
        <source>; waits {wait} per step on the GPUs&apos; collectives over {link}</source>
        <translation>；每步等待 GPU 间经 {link} 的集合通信 {wait}</translation>
    </message>
    <message>
        <source>bound by kernel launches: {kernels:,.0f} kernels take {launch}; the GPU&apos;s work: {split}</source>
        <translation>受内核启动限制：{kernels:,.0f} 个内核耗时 {launch}；GPU 计算部分：{split}</translation>
    </message>
    <message>
        <source>torch.compile at this machine&apos;s measured rates</source>
        <translation>torch.compile，按本机实测速率</translation>
    </message>
    <message>
        <source>torch.compile</source>
        <translation>torch.compile</translation>
    </message>
    <message>
        <source>eager PyTorch at this machine&apos;s measured rates</source>
        <translation>eager 模式 PyTorch，按本机实测速率</translation>
    </message>
    <message>
        <source>eager PyTorch</source>
        <translation>eager 模式 PyTorch</translation>
    </message>
    <message>
        <source>Time per step: {step} · {samples:,.1f} samples/s{tokens} ({split}; {basis})</source>
        <translation>单步时间：{step} · {samples:,.1f} 样本/s{tokens}（{split}；{basis}）</translation>
    </message>
    <message>
        <source>Matmuls at {compute:.0%} and convolutions at {conv:.0%} of the dense rate, other operators at {memory:.0%} of the bandwidth; each class of matmuls of like arithmetic intensity takes the longer of its FLOPs and its bytes (the roofline): {source}.</source>
        <translation>矩阵乘法按稠密算力的 {compute:.0%}、卷积按 {conv:.0%} 计，其他算子按带宽的 {memory:.0%} 计；每类算术强度相近的矩阵乘法取其 FLOPs 耗时与字节耗时中的较长者（roofline 模型）：{source}。</translation>
    </message>
    <message>
        <source>Under torch.compile the operators between two matrix products are fused: they move the bytes of {fused} at the full bandwidth where eager PyTorch moves {eager}, in {kernels:,.0f} kernels instead of {eager_kernels:,.0f}, counted as TorchInductor fuses them (its own count of the same step is higher for most models). The optimizer step stays eager.</source>
        <translation>在 torch.compile 下，两次矩阵乘法之间的算子会被融合：按满带宽计，它们搬运的字节需 {fused}，而 eager 模式 PyTorch 需 {eager}；内核数为 {kernels:,.0f} 个而非 {eager_kernels:,.0f} 个，按 TorchInductor 的融合方式计数（对多数模型，它自己对同一步的计数更高）。优化器步骤仍以 eager 模式运行。</translation>
    </message>
    <message>
        <source>Batch normalization over channels-first tensors takes {cycles:.2f} multiprocessor cycles per element where that is slower than the bandwidth (PyTorch reduces each channel in one block of threads); channels-last does not.</source>
        <translation>通道优先（NCHW）张量上的批归一化，在比带宽更慢时按每个元素 {cycles:.2f} 个多处理器周期计（PyTorch 在一个线程块内归约每个通道）；通道在后（NHWC）则不受此限。</translation>
    </message>
    <message>
        <source>memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>算力</translation>
    </message>
    <message>
        <source>kernel launches</source>
        <translation>内核启动</translation>
    </message>
    <message>
        <source>First token after {first} · then {rate:,.1f} tokens/s per sequence, {total:,.1f} in total (a decode step {step}, bound by {bound}; torch.compile) · whole request {whole}</source>
        <translation>首个 token 用时 {first} · 之后每个序列 {rate:,.1f} tokens/s，合计 {total:,.1f}（每个解码步 {step}，受{bound}限制；torch.compile） · 整个请求 {whole}</translation>
    </message>
    <message>
        <source>First token after {first} · then {rate:,.1f} tokens/s per sequence, {total:,.1f} in total (a decode step {step}, bound by {bound}; eager PyTorch) · whole request {whole}</source>
        <translation>首个 token 用时 {first} · 之后每个序列 {rate:,.1f} tokens/s，合计 {total:,.1f}（每个解码步 {step}，受{bound}限制；eager 模式 PyTorch） · 整个请求 {whole}</translation>
    </message>
    <message>
        <source> · expected error of a decode step: {band}</source>
        <translation> · 解码步骤的预期误差：{band}</translation>
    </message>
    <message>
        <source>Each decode step reads every weight once for the batch and the KV cache so far at {share:.0%} of the memory bandwidth, and torch.compile&apos;s default mode launches each of its {kernels:,.0f} fused kernels ({launch:.0f} µs each): {source}. With CUDA graphs (torch.compile&apos;s reduce-overhead): {compiled:,.1f} tokens/s per sequence.</source>
        <translation>每个解码步以显存带宽的 {share:.0%} 为整个批次读取一遍全部权重及当前已有的 KV cache，且 torch.compile 默认模式要逐个启动其 {kernels:,.0f} 个融合内核（每个 {launch:.0f} µs）：{source}。使用 CUDA graphs（torch.compile 的 reduce-overhead 模式）后：每个序列 {compiled:,.1f} tokens/s。</translation>
    </message>
    <message>
        <source>Each decode step reads every weight once for the batch and the KV cache so far at {share:.0%} of the memory bandwidth, and eager PyTorch launches each of its {kernels:,.0f} kernels ({launch:.0f} µs each): {source}. Compiled with CUDA graphs (torch.compile&apos;s reduce-overhead): {compiled:,.1f} tokens/s per sequence.</source>
        <translation>每个解码步以显存带宽的 {share:.0%} 为整个批次读取一遍全部权重及当前已有的 KV cache，且 eager 模式 PyTorch 要逐个启动其 {kernels:,.0f} 个内核（每个 {launch:.0f} µs）：{source}。使用 CUDA graphs 编译（torch.compile 的 reduce-overhead 模式）后：每个序列 {compiled:,.1f} tokens/s。</translation>
    </message>
    <message>
        <source>, divided over {n} GPUs ({strategy})</source>
        <translation>，分摊到 {n} 个 GPU（{strategy}）</translation>
    </message>
    <message>
        <source>fitted to the traced points: grows with batch and length, at the {phase} phase</source>
        <translation>按追踪点拟合：随批大小和序列长度增长，取 {phase} 阶段</translation>
    </message>
    <message>
        <source>per token from the trace, times prompt + generated tokens</source>
        <translation>按追踪得到的每 token 用量，乘以提示词 + 生成的 token 数</translation>
    </message>
    <message>
        <source>what the device adds; each line says where its figure comes from</source>
        <translation>设备额外占用的部分；每一行注明其数值来源</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Not even a micro-batch of 1 fits on {gpu}.</source>
        <translation>{gpu} 连大小为 1 的微批次都放不下。</translation>
    </message>
    <message>
        <source>Any micro-batch up to {n:,} fits.</source>
        <translation>不超过 {n:,} 的微批次都放得下。</translation>
    </message>
    <message>
        <source>Largest micro-batch that fits: about {n:,} (at length {seq:,}), extended past the traced batches: set the batch to it to trace there.</source>
        <translation>放得下的最大微批次：约 {n:,}（序列长度 {seq:,}），由已追踪的批大小外推而来：把批大小设为该值即可在那里追踪。</translation>
    </message>
    <message>
        <source>Largest micro-batch that fits: {n:,} (at length {seq:,}).</source>
        <translation>放得下的最大微批次：{n:,}（序列长度 {seq:,}）。</translation>
    </message>
</context>
<context>
    <name>BatchChart</name>
    <message>
        <source>micro-batch</source>
        <translation>微批大小</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>Peak memory per GPU by micro-batch size</source>
        <translation>不同微批大小下每块 GPU 的峰值显存</translation>
    </message>
    <message>
        <source>{unit} per GPU</source>
        <translation>每块 GPU（{unit}）</translation>
    </message>
    <message>
        <source>Peak memory by batch size</source>
        <translation>不同批大小下的峰值内存</translation>
    </message>
</context>
<context>
    <name>BuildChecks</name>
    <message>
        <source>cpu</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>motherboard</source>
        <translation>主板</translation>
    </message>
    <message>
        <source>ram</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>ssd</source>
        <translation>固态硬盘</translation>
    </message>
    <message>
        <source>psu</source>
        <translation>电源</translation>
    </message>
    <message>
        <source>case</source>
        <translation>机箱</translation>
    </message>
    <message>
        <source>The build has no GPU.</source>
        <translation>装机方案中没有 GPU。</translation>
    </message>
    <message>
        <source>Add a GPU from the catalog.</source>
        <translation>从硬件目录中添加一块 GPU。</translation>
    </message>
    <message>
        <source>Not in the build, so not checked: {kinds}.</source>
        <translation>方案中缺少以下配件，因此未作检查：{kinds}。</translation>
    </message>
    <message>
        <source>Add the missing parts to check them against the rest.</source>
        <translation>添加缺少的配件，以检查它们与其余配件是否兼容。</translation>
    </message>
    <message>
        <source>The build has {n} {kind} lines; a machine takes one.</source>
        <translation>装机方案中有 {n} 行{kind}；一台机器只能装一个。</translation>
    </message>
    <message>
        <source>Keep one {kind}.</source>
        <translation>只保留一个{kind}。</translation>
    </message>
    <message>
        <source>{cpu} is a {cpu_socket} CPU; {board} has a {board_socket} socket.</source>
        <translation>{cpu} 是 {cpu_socket} 插槽的 CPU；{board} 是 {board_socket} 插槽。</translation>
    </message>
    <message>
        <source>Choose a {cpu_socket} board, or a {board_socket} CPU.</source>
        <translation>改选 {cpu_socket} 插槽的主板，或 {board_socket} 插槽的 CPU。</translation>
    </message>
    <message>
        <source>{case} takes {forms} boards; {board} is {form}.</source>
        <translation>{case} 支持 {forms} 主板；{board} 是 {form}。</translation>
    </message>
    <message>
        <source>Choose a case that lists {form} support.</source>
        <translation>选择标明支持 {form} 的机箱。</translation>
    </message>
    <message>
        <source>{drives} M.2 drives, but {board} has {slots} M.2 slots.</source>
        <translation>共 {drives} 块 M.2 硬盘，但 {board} 只有 {slots} 个 M.2 插槽。</translation>
    </message>
    <message>
        <source>Use fewer, larger drives, or a board with more M.2 slots.</source>
        <translation>改用数量更少、容量更大的硬盘，或选择 M.2 插槽更多的主板。</translation>
    </message>
    <message>
        <source>{kit} is {kit_type}; {host} takes {host_type}.</source>
        <translation>{kit} 是 {kit_type}；{host} 使用 {host_type}。</translation>
    </message>
    <message>
        <source>Choose a {memory_type} kit.</source>
        <translation>选择 {memory_type} 内存套装。</translation>
    </message>
    <message>
        <source>{kit} is SO-DIMM (laptop) memory; {board} takes full-size DIMMs.</source>
        <translation>{kit} 是 SO-DIMM（笔记本）内存；{board} 使用全尺寸 DIMM。</translation>
    </message>
    <message>
        <source>Choose a DIMM kit.</source>
        <translation>选择 DIMM 内存套装。</translation>
    </message>
    <message>
        <source>{kit} is registered (RDIMM) memory; desktop platforms such as {socket} take unbuffered DIMMs.</source>
        <translation>{kit} 是带寄存器的（RDIMM）内存；{socket} 等桌面平台使用无缓冲 DIMM。</translation>
    </message>
    <message>
        <source>Choose a UDIMM kit.</source>
        <translation>选择 UDIMM 内存套装。</translation>
    </message>
    <message>
        <source>{modules} memory modules, but {board} has {slots} slots.</source>
        <translation>共 {modules} 根内存条，但 {board} 只有 {slots} 个内存插槽。</translation>
    </message>
    <message>
        <source>Use fewer, larger modules.</source>
        <translation>改用数量更少、容量更大的内存条。</translation>
    </message>
    <message>
        <source>{capacity} GB of memory; {host} supports at most {limit} GB.</source>
        <translation>内存共 {capacity} GB；{host} 最多支持 {limit} GB。</translation>
    </message>
    <message>
        <source>Stay at or below {limit} GB.</source>
        <translation>内存总量不要超过 {limit} GB。</translation>
    </message>
    <message>
        <source>{capacity} GB of system memory is less than the biggest GPU&apos;s {biggest:g} GB: loading a checkpoint or pinning batches for it can swap.</source>
        <translation>系统内存 {capacity} GB，少于最大 GPU 的 {biggest:g} GB 显存：为它加载检查点或把批数据放入锁页内存时，可能触发内存交换。</translation>
    </message>
    <message>
        <source>Use at least {needed} GB.</source>
        <translation>内存至少配置 {needed} GB。</translation>
    </message>
    <message>
        <source>Different GPUs in one machine ({gpus}): data-parallel training runs at the pace of the slowest card and the memory of the smallest.</source>
        <translation>同一台机器中混用了不同的 GPU（{gpus}）：数据并行训练的速度取决于最慢的显卡，显存取决于最小的显卡。</translation>
    </message>
    <message>
        <source>Use one GPU model throughout.</source>
        <translation>全部使用同一型号的 GPU。</translation>
    </message>
    <message>
        <source>{board} seats {seated} of the {count} cards: its x16 slots ({positions}) are too close for {width}-slot cards.</source>
        <translation>{board} 只能装下 {count} 块显卡中的 {seated} 块：其 x16 插槽（{positions}）间距太近，容不下 {width} 槽宽的显卡。</translation>
    </message>
    <message>
        <source>Choose a board with more widely spaced x16 slots, thinner (blower) cards, or riser cables.</source>
        <translation>选择 x16 插槽间距更大的主板、更薄的（涡轮）显卡，或使用显卡延长线。</translation>
    </message>
    <message>
        <source>{card} in slot {position} gets PCIe {gen}.0 x{lanes} through the chipset: gradient exchange and host copies to it are slower.</source>
        <translation>插槽 {position} 中的 {card} 经由芯片组只能获得 PCIe {gen}.0 x{lanes}：梯度交换以及主机到该卡的数据拷贝会变慢。</translation>
    </message>
    <message>
        <source>{card} in slot {position} gets PCIe {gen}.0 x{lanes}: gradient exchange and host copies to it are slower.</source>
        <translation>插槽 {position} 中的 {card} 只能获得 PCIe {gen}.0 x{lanes}：梯度交换以及主机到该卡的数据拷贝会变慢。</translation>
    </message>
    <message>
        <source>A board (or CPU) with x8 or x16 from the CPU for every card.</source>
        <translation>选择能为每块显卡提供 CPU 直连 x8 或 x16 通道的主板（或 CPU）。</translation>
    </message>
    <message>
        <source>The lowest card covers expansion position {needed}; {case} has {slots} expansion slots.</source>
        <translation>最下方的显卡占用到第 {needed} 个扩展槽位；{case} 只有 {slots} 个扩展槽位。</translation>
    </message>
    <message>
        <source>A case with more expansion slots (a full tower), or fewer or thinner cards.</source>
        <translation>选择扩展槽位更多的机箱（全塔），或减少显卡数量、改用更薄的显卡。</translation>
    </message>
    <message>
        <source>{gpu} is {length} mm long; {case} takes {room} mm.</source>
        <translation>{gpu} 长 {length} mm；{case} 最多容纳 {room} mm。</translation>
    </message>
    <message>
        <source>A case that takes cards of {length} mm or more.</source>
        <translation>选择可容纳 {length} mm 及以上长度显卡的机箱。</translation>
    </message>
    <message>
        <source>{gpu} has no fan: it relies on a server chassis pushing air through it and overheats in a desktop case.</source>
        <translation>{gpu} 没有风扇：它依靠服务器机箱强制送风散热，装在台式机箱中会过热。</translation>
    </message>
    <message>
        <source>A rack chassis with front-to-back airflow, or a card with its own fan.</source>
        <translation>使用前进后出风道的机架式机箱，或改用自带风扇的显卡。</translation>
    </message>
    <message>
        <source>{cards} open-air cards: each blows its heat onto the next, so they throttle.</source>
        <translation>{cards} 块开放式风冷显卡：每块都把热量吹向相邻的显卡，因而会降频。</translation>
    </message>
    <message>
        <source>Blower-style or water-cooled cards, riser cables with space between cards, or at most {most} open-air cards.</source>
        <translation>改用涡轮或水冷显卡、用显卡延长线拉开显卡间距，或最多使用 {most} 块开放式风冷显卡。</translation>
    </message>
    <message>
        <source>{gpus}: no peer-to-peer copies between cards, so NCCL goes through host memory and can hang unless told.</source>
        <translation>{gpus}：显卡之间无法点对点（P2P）拷贝，NCCL 只能经由主机内存传输，若不另行设置可能会卡死。</translation>
    </message>
    <message>
        <source>Set NCCL_P2P_DISABLE=1 (the setup guide does).</source>
        <translation>设置 NCCL_P2P_DISABLE=1（环境配置指南会自动设置）。</translation>
    </message>
    <message>
        <source>{psu} is rated {psu_w:,} W; this build needs {required:,} W from an {generation} supply (cards {gpu_w:,} W x {factor:g} for their power spikes, CPU {cpu_w:,} W, rest {rest_w:,} W).</source>
        <translation>{psu} 额定功率 {psu_w:,} W；此方案需要 {required:,} W 的 {generation} 电源（显卡 {gpu_w:,} W x {factor:g} 以应对功耗尖峰，CPU {cpu_w:,} W，其余 {rest_w:,} W）。</translation>
    </message>
    <message>
        <source>A supply of at least {watts:,} W, or power-limit the cards (nvidia-smi -pl).</source>
        <translation>使用至少 {watts:,} W 的电源，或限制显卡功耗（nvidia-smi -pl）。</translation>
    </message>
    <message>
        <source>A supply of at least {watts:,} W (an ATX 3.x supply needs less), or power-limit the cards (nvidia-smi -pl).</source>
        <translation>使用至少 {watts:,} W 的电源（ATX 3.x 电源所需更低），或限制显卡功耗（nvidia-smi -pl）。</translation>
    </message>
    <message>
        <source>The build draws {sustained:,} W, {share:.0%} of {psu}&apos;s {psu_w:,} W: little headroom, and past its most efficient range.</source>
        <translation>此方案功耗 {sustained:,} W，占 {psu} 额定 {psu_w:,} W 的 {share:.0%}：余量很小，且已超出其最高效区间。</translation>
    </message>
    <message>
        <source>A supply of {watts:,} W or more.</source>
        <translation>使用 {watts:,} W 或更大功率的电源。</translation>
    </message>
    <message>
        <source>At the wall the build draws about {wall:,} W; a {circuit} circuit carries {watts:,} W continuously.</source>
        <translation>此方案墙插功耗约 {wall:,} W；{circuit} 电路可持续承载 {watts:,} W。</translation>
    </message>
    <message>
        <source>Two circuits (and two supplies), a higher-rated circuit, or power-limit the cards.</source>
        <translation>使用两条电路（及两个电源）、额定值更高的电路，或限制显卡功耗。</translation>
    </message>
    <message>
        <source>{gpu} (8-pin EPS)</source>
        <translation>{gpu}（8-pin EPS）</translation>
    </message>
    <message>
        <source>{short} card(s) must use their 8-pin adapter: {psu} has {native} native 12V-2x6 cable(s) for {cards} cards.</source>
        <translation>{short} 块显卡必须使用其 8-pin 转接线：{psu} 只有 {native} 条原生 12V-2x6 线缆，却要供 {cards} 块显卡使用。</translation>
    </message>
    <message>
        <source>A supply with a native cable for each card.</source>
        <translation>使用能为每块显卡提供原生线缆的电源。</translation>
    </message>
    <message>
        <source>The cards need {cables} 12V-2x6/12VHPWR cables; {psu} has {native}.</source>
        <translation>显卡需要 {cables} 条 12V-2x6/12VHPWR 线缆；{psu} 只有 {native} 条。</translation>
    </message>
    <message>
        <source>The cards need {cables} 12V-2x6/12VHPWR cables; {psu} has {native} and {eight} PCIe 8-pin.</source>
        <translation>显卡需要 {cables} 条 12V-2x6/12VHPWR 线缆；{psu} 只有 {native} 条，另有 {eight} 条 PCIe 8-pin。</translation>
    </message>
    <message>
        <source>A supply with a native 12V-2x6 cable for each card.</source>
        <translation>使用能为每块显卡提供一条原生 12V-2x6 线缆的电源。</translation>
    </message>
    <message>
        <source>The cards need {cables} PCIe 8-pin cables; {psu} has {eight}.</source>
        <translation>显卡需要 {cables} 条 PCIe 8-pin 线缆；{psu} 只有 {eight} 条。</translation>
    </message>
    <message>
        <source>A supply with more PCIe 8-pin cables (no pigtails: one cable per plug).</source>
        <translation>使用 PCIe 8-pin 线缆更多的电源（不要用一拖二线：每个接口单独一条线缆）。</translation>
    </message>
    <message>
        <source>{psu}&apos;s PCIe 8-pin count</source>
        <translation>{psu} 的 PCIe 8-pin 线缆数量</translation>
    </message>
    <message>
        <source>Power cables not checked (not in the catalog): {what}.</source>
        <translation>未检查供电线缆（硬件目录中没有相关数据）：{what}。</translation>
    </message>
    <message>
        <source>Check the cables against the card&apos;s and supply&apos;s manuals.</source>
        <translation>请对照显卡和电源的说明书核对线缆。</translation>
    </message>
    <message>
        <source>no CPU in the build</source>
        <translation>装机方案中没有 CPU</translation>
    </message>
    <message>
        <source>maximum package power</source>
        <translation>最大封装功耗</translation>
    </message>
    <message>
        <source>TDP (the catalog has no maximum package power for it)</source>
        <translation>TDP（硬件目录中没有其最大封装功耗数据）</translation>
    </message>
    <message>
        <source>TDP</source>
        <translation>TDP</translation>
    </message>
    <message>
        <source>{gpu}: {problem}.</source>
        <translation>{gpu}：{problem}。</translation>
    </message>
    <message>
        <source>Choose an NVIDIA or AMD GPU.</source>
        <translation>选择 NVIDIA 或 AMD 的 GPU。</translation>
    </message>
    <message>
        <source>No PyTorch build in the tables runs {gpu}.</source>
        <translation>数据表中没有能运行 {gpu} 的 PyTorch 版本。</translation>
    </message>
    <message>
        <source>Choose a GPU that PyTorch supports.</source>
        <translation>选择 PyTorch 支持的 GPU。</translation>
    </message>
    <message>
        <source>PyTorch {newest} ships no code for {gpu}; {last} is the newest build that does.</source>
        <translation>PyTorch {newest} 未包含适用于 {gpu} 的代码；仍包含的最新版本是 {last}。</translation>
    </message>
    <message>
        <source>PyTorch {newest} ships no code for {gpu}.</source>
        <translation>PyTorch {newest} 未包含适用于 {gpu} 的代码。</translation>
    </message>
    <message>
        <source>Pin {last} (the setup guide gives the command), or choose a newer GPU.</source>
        <translation>固定使用 {last}（环境配置指南中给出了相应命令），或选择更新的 GPU。</translation>
    </message>
    <message>
        <source>Plan the build again (the Recommend panel, or gpuconfig recommend), or correct &quot;workload&quot; in the build file.</source>
        <translation>重新规划装机方案（“推荐”面板，或 gpuconfig recommend），或修正装机方案文件中的 &quot;workload&quot;。</translation>
    </message>
    <message>
        <source>its workload cannot be read ({error})</source>
        <translation>无法读取其工作负载（{error}）</translation>
    </message>
    <message>
        <source>The build&apos;s workload runs on the CPU: its memory is not judged against the cards.</source>
        <translation>该装机方案的工作负载在 CPU 上运行：不按显卡判断其内存。</translation>
    </message>
    <message>
        <source>The workload ({model}) is not checked against the cards yet: its model has not been traced.</source>
        <translation>工作负载（{model}）尚未对照显卡检查：其模型还没有追踪。</translation>
    </message>
    <message>
        <source>The build&apos;s workload is not checked against its cards: {reason}.</source>
        <translation>该装机方案的工作负载未对照其显卡检查：{reason}。</translation>
    </message>
    <message>
        <source>{usable:.1f} GiB usable ({memory:.1f} GiB less {headroom} headroom)</source>
        <translation>可用 {usable:.1f} GiB（{memory:.1f} GiB 减去 {headroom} 余量）</translation>
    </message>
    <message>
        <source>The workload, {model} {task} at batch {batch} x {seq}{cards}, needs {peak:.1f} GiB per card; {gpu} has {usable}</source>
        <translation>工作负载 {model} {task}，批大小 {batch} × {seq}{cards}，每块显卡需要 {peak:.1f} GiB；{gpu} {usable}</translation>
    </message>
    <message>
        <source>The workload, {model} {task} at batch {batch} x {seq}{cards}, needs {peak:.1f} GiB; {gpu} has {usable}</source>
        <translation>工作负载 {model} {task}，批大小 {batch} × {seq}{cards}，需要 {peak:.1f} GiB；{gpu} {usable}</translation>
    </message>
    <message>
        <source>Workload estimate: the model&apos;s trace, as gpuconfig estimate shows it; Fit headroom: {why}</source>
        <translation>工作负载估算：模型的追踪结果，与 gpuconfig estimate 显示的一致；显存余量：{why}</translation>
    </message>
    <message>
        <source>{needs}: it fits, {spare:.1f} GiB to spare.</source>
        <translation>{needs}：放得下，还余 {spare:.1f} GiB。</translation>
    </message>
    <message>
        <source>A card with more memory, or one of the fits-if changes: {command} lists them; it may run if nothing else uses the card and the estimate is not under, which is what the headroom guards against.</source>
        <translation>换一块显存更大的显卡，或采用某项“若…则放得下”的调整：{command} 会列出它们；如果显卡上没有其他程序且估算没有偏低，它或许能运行，而余量正是为防范这些情况而留。</translation>
    </message>
    <message>
        <source>{needs}: it fits only by using the headroom.</source>
        <translation>{needs}：只有占用余量才放得下。</translation>
    </message>
    <message>
        <source>A card with more memory, or one of the fits-if changes: {command} lists them.</source>
        <translation>换一块显存更大的显卡，或采用某项“若…则放得下”的调整：{command} 会列出它们。</translation>
    </message>
    <message>
        <source>{needs}: it does not fit.</source>
        <translation>{needs}：放不下。</translation>
    </message>
    <message>
        <source> on {n} cards ({strategy})</source>
        <translation>，使用 {n} 块显卡（{strategy}）</translation>
    </message>
    <message>
        <source>{used}, not the {planned} it was planned for</source>
        <translation>{used}，而不是规划的 {planned} 块</translation>
    </message>
    <message>
        <source> on one card</source>
        <translation>，使用 1 块显卡</translation>
    </message>
</context>
<context>
    <name>BuildExport</name>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>unpriced</source>
        <translation>无价格</translation>
    </message>
    <message>
        <source> + {n} unpriced parts</source>
        <translation> + {n} 个无价格配件</translation>
    </message>
    <message>
        <source> + 1 unpriced part</source>
        <translation> + 1 个无价格配件</translation>
    </message>
    <message>
        <source>CPU {watts:,} W at its {basis}</source>
        <translation>CPU {watts:,} W（按其{basis}）</translation>
    </message>
    <message>
        <source>no CPU</source>
        <translation>无 CPU</translation>
    </message>
    <message>
        <source>Sustained draw: {sustained:,} W (GPUs {gpu:,} W, {cpu}, rest of the system {rest:,} W).</source>
        <translation>持续功耗：{sustained:,} W（GPU {gpu:,} W，{cpu}，系统其余部分 {rest:,} W）。</translation>
    </message>
    <message>
        <source>Power supply: {watts:,} W</source>
        <translation>电源：{watts:,} W</translation>
    </message>
    <message>
        <source>Power supply: none in the build</source>
        <translation>电源：装机方案中没有电源</translation>
    </message>
    <message>
        <source>{supply}; this build needs {required:,} W from an {generation} supply.</source>
        <translation>{supply}；该装机方案需要一台 {required:,} W 的 {generation} 电源。</translation>
    </message>
    <message>
        <source>At the wall: about {wall:,} W at {efficiency:.0%} efficiency; a {circuit} circuit carries {watts:,} W continuously.</source>
        <translation>墙插功耗：约 {wall:,} W（电源效率 {efficiency:.0%}）；{circuit} 电路可持续承载 {watts:,} W。</translation>
    </message>
    <message>
        <source>Circuit: {circuit}, {watts:,} W continuous.</source>
        <translation>电路：{circuit}，可持续承载 {watts:,} W。</translation>
    </message>
    <message>
        <source>your rate</source>
        <translation>自定汇率</translation>
    </message>
    <message>
        <source>Converted at 1 USD = {rate:g} CNY ({origin}).</source>
        <translation>按 1 USD = {rate:g} CNY 换算（{origin}）。</translation>
    </message>
    <message>
        <source>Made with gpuconfig {version} on {date}; prices from the catalog and its sources.</source>
        <translation>由 gpuconfig {version} 于 {date} 生成；价格取自硬件目录及其来源。</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>配件</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Key specs</source>
        <translation>主要规格</translation>
    </message>
    <message>
        <source>Qty</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Unit price</source>
        <translation>单价</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>Unpriced, not in the total: {names}.</source>
        <translation>无价格、未计入合计：{names}。</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>Checks</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Every compatibility and power rule passes.</source>
        <translation>所有兼容性与功耗规则均通过。</translation>
    </message>
    <message>
        <source>(source: {source})</source>
        <translation>（来源：{source}）</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>{sustained:,} W of {psu:,} W ({share:.0%}); the build needs a {required:,} W rating.</source>
        <translation>{sustained:,} W / {psu:,} W（{share:.0%}）；该装机方案需要额定 {required:,} W 的电源。</translation>
    </message>
    <message>
        <source>Fix:</source>
        <translation>解决：</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>{n} lines · prices in {currency}</source>
        <translation>{n} 行 · 价格单位 {currency}</translation>
    </message>
    <message>
        <source> · circuit: {circuit}</source>
        <translation> · 电路：{circuit}</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>part</source>
        <translation>配件</translation>
    </message>
    <message>
        <source>id</source>
        <translation>id</translation>
    </message>
    <message>
        <source>key_specs</source>
        <translation>主要规格</translation>
    </message>
    <message>
        <source>count</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>unit_price</source>
        <translation>单价</translation>
    </message>
    <message>
        <source>line_total</source>
        <translation>小计</translation>
    </message>
    <message>
        <source>currency</source>
        <translation>货币</translation>
    </message>
    <message>
        <source>price_note</source>
        <translation>价格说明</translation>
    </message>
    <message>
        <source>unpriced, not in the total: {names}</source>
        <translation>无价格、未计入合计：{names}</translation>
    </message>
    <message>
        <source>total</source>
        <translation>合计</translation>
    </message>
</context>
<context>
    <name>BuildFiles</name>
    <message>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>HTML</source>
        <translation>HTML</translation>
    </message>
    <message>
        <source>Web page (*.html)</source>
        <translation>网页 (*.html)</translation>
    </message>
    <message>
        <source>PDF</source>
        <translation>PDF</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>CSV</source>
        <translation>CSV</translation>
    </message>
    <message>
        <source>Spreadsheet (*.csv)</source>
        <translation>电子表格 (*.csv)</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>gpuconfig build (*.json)</source>
        <translation>gpuconfig 装机方案 (*.json)</translation>
    </message>
    <message>
        <source>Build name</source>
        <translation>装机方案名称</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>Start an empty build</source>
        <translation>新建空白装机方案</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Open a saved build</source>
        <translation>打开已保存的装机方案</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save under this name</source>
        <translation>以当前名称保存</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <source>Save under a new name</source>
        <translation>以新名称保存</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the saved build</source>
        <translation>删除已保存的装机方案</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <source>Open a build JSON file</source>
        <translation>打开装机方案 JSON 文件</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Write the build list as a document</source>
        <translation>将配置清单导出为文档</translation>
    </message>
    <message>
        <source>saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>已修改</translation>
    </message>
    <message>
        <source>Saved {name}</source>
        <translation>已保存 {name}</translation>
    </message>
    <message>
        <source>Opened {name}</source>
        <translation>已打开 {name}</translation>
    </message>
    <message>
        <source>Exported {name} to {path}</source>
        <translation>已将 {name} 导出到 {path}</translation>
    </message>
    <message>
        <source>Imported {name}</source>
        <translation>已导入 {name}</translation>
    </message>
    <message>
        <source>No saved builds yet</source>
        <translation>尚无已保存的装机方案</translation>
    </message>
    <message>
        <source>Build not opened</source>
        <translation>无法打开装机方案</translation>
    </message>
    <message>
        <source>Save as</source>
        <translation>另存为</translation>
    </message>
    <message>
        <source>Build name:</source>
        <translation>装机方案名称：</translation>
    </message>
    <message>
        <source>Replace?</source>
        <translation>是否替换？</translation>
    </message>
    <message>
        <source>Replace the saved {name}?</source>
        <translation>是否替换已保存的 {name}？</translation>
    </message>
    <message>
        <source>Delete build</source>
        <translation>删除装机方案</translation>
    </message>
    <message>
        <source>Delete the saved {name}? The list stays open.</source>
        <translation>是否删除已保存的 {name}？当前清单仍保持打开。</translation>
    </message>
    <message>
        <source>Deleted {name}</source>
        <translation>已删除 {name}</translation>
    </message>
    <message>
        <source>Import a build</source>
        <translation>导入装机方案</translation>
    </message>
    <message>
        <source>Build files (*.json)</source>
        <translation>装机方案文件 (*.json)</translation>
    </message>
    <message>
        <source>Build not imported</source>
        <translation>无法导入装机方案</translation>
    </message>
    <message>
        <source>Export as {format}</source>
        <translation>导出为 {format}</translation>
    </message>
    <message>
        <source>Not exported</source>
        <translation>未能导出</translation>
    </message>
</context>
<context>
    <name>BuildList</name>
    <message>
        <source>Part</source>
        <translation>配件</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Key specs</source>
        <translation>主要规格</translation>
    </message>
    <message>
        <source>Qty</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Unit ({currency})</source>
        <translation>单价（{currency}）</translation>
    </message>
    <message>
        <source>Total ({currency})</source>
        <translation>总价（{currency}）</translation>
    </message>
    <message>
        <source>unpriced</source>
        <translation>无价格</translation>
    </message>
    <message>
        <source>Swap…</source>
        <translation>更换…</translation>
    </message>
    <message>
        <source>Choose another part of this kind</source>
        <translation>选择同类的其他配件</translation>
    </message>
    <message>
        <source>Every figure of this part, with its sources</source>
        <translation>此配件的全部数据及其来源</translation>
    </message>
    <message>
        <source>Remove from the build</source>
        <translation>从装机方案中移除</translation>
    </message>
</context>
<context>
    <name>BuildSheet</name>
    <message>
        <source>GPU</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Motherboard</source>
        <translation>主板</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Power supply</source>
        <translation>电源</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>机箱</translation>
    </message>
    <message>
        <source>eGPU dock</source>
        <translation>外接显卡扩展坞</translation>
    </message>
    <message>
        <source>Cloud instance</source>
        <translation>云实例</translation>
    </message>
    <message>
        <source>{} BF16</source>
        <translation>{} BF16</translation>
    </message>
    <message>
        <source>{} cores</source>
        <translation>{} 核</translation>
    </message>
    <message>
        <source>{} PCIe lanes</source>
        <translation>{} 条 PCIe 通道</translation>
    </message>
    <message>
        <source>{} TDP</source>
        <translation>TDP {}</translation>
    </message>
    <message>
        <source>{} modules</source>
        <translation>{} 条</translation>
    </message>
    <message>
        <source>Gen{}</source>
        <translation>Gen{}</translation>
    </message>
    <message>
        <source>{} read</source>
        <translation>读取 {}</translation>
    </message>
    <message>
        <source>ATX {}</source>
        <translation>ATX {}</translation>
    </message>
    <message>
        <source>{}x 12V-2x6</source>
        <translation>{}x 12V-2x6</translation>
    </message>
    <message>
        <source>cards to {}</source>
        <translation>显卡长度至 {}</translation>
    </message>
    <message>
        <source>{} slots</source>
        <translation>{} 个槽位</translation>
    </message>
    <message>
        <source>{} supply</source>
        <translation>{} 电源</translation>
    </message>
    <message>
        <source>{} GPUs</source>
        <translation>{} 块 GPU</translation>
    </message>
    <message>
        <source>{} each</source>
        <translation>每块 {}</translation>
    </message>
    <message>
        <source>no public price</source>
        <translation>无公开价格</translation>
    </message>
    <message>
        <source>priced in {currency}; no exchange rate to convert it</source>
        <translation>以 {currency} 计价；没有可用于换算的汇率</translation>
    </message>
    <message>
        <source>{price} at {rate:g} CNY/USD</source>
        <translation>{price}，按 {rate:g} CNY/USD</translation>
    </message>
    <message>
        <source>your price</source>
        <translation>自定价格</translation>
    </message>
    <message>
        <source>price of {date}, {age} old: check a current one</source>
        <translation>{date} 的价格，已有 {age}：请核对当前价格</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>BuildTab</name>
    <message>
        <source>Add part…</source>
        <translation>添加配件…</translation>
    </message>
    <message>
        <source>Prices in this currency, converted at the exchange rate where needed</source>
        <translation>以此货币显示价格，必要时按汇率换算</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>货币</translation>
    </message>
    <message>
        <source>Wall circuit</source>
        <translation>墙插电路</translation>
    </message>
    <message>
        <source>Untitled build</source>
        <translation>未命名装机方案</translation>
    </message>
    <message>
        <source>the trace of {model} failed: {why}</source>
        <translation>{model} 的追踪失败：{why}</translation>
    </message>
    <message>
        <source>The workload&apos;s memory against the cards: checking… ({model} is being traced)</source>
        <translation>工作负载所需显存与各显卡的对比：检查中…（正在追踪 {model}）</translation>
    </message>
    <message>
        <source>The build&apos;s workload is not checked against its cards: {why}</source>
        <translation>未对照显卡检查此装机方案的工作负载：{why}</translation>
    </message>
    <message>
        <source>Swap {name}</source>
        <translation>更换 {name}</translation>
    </message>
    <message>
        <source>Add a part</source>
        <translation>添加配件</translation>
    </message>
    <message>
        <source>{name} is in the build</source>
        <translation>{name} 已加入装机方案</translation>
    </message>
    <message>
        <source>Loaded the recommended {name}</source>
        <translation>已载入推荐的 {name}</translation>
    </message>
</context>
<context>
    <name>BuildView</name>
    <message>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>Nothing to check yet: add parts, or load a build the Recommend panel proposes.</source>
        <translation>还没有可检查的内容：请添加配件，或载入“推荐”面板给出的装机方案。</translation>
    </message>
    <message>
        <source>Checks — problems: {fail}, warnings: {warn}, notes: {info}</source>
        <translation>检查结果 — 问题：{fail}，警告：{warn}，提示：{info}</translation>
    </message>
    <message>
        <source>Checks</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Total {amount}</source>
        <translation>合计 {amount}</translation>
    </message>
    <message>
        <source>+ {n} unpriced, not counted: {names}</source>
        <translation>+ {n} 个配件无价格，未计入：{names}</translation>
    </message>
    <message>
        <source>converted at 1 USD = {rate:g} CNY</source>
        <translation>按 1 USD = {rate:g} CNY 换算</translation>
    </message>
    <message>
        <source>Add parts to see the power budget.</source>
        <translation>添加配件后即可查看功耗预算。</translation>
    </message>
    <message>
        <source>Draws {w:,} W sustained</source>
        <translation>持续功耗 {w:,} W</translation>
    </message>
    <message>
        <source>, {share:.0%} of the {psu:,} W supply</source>
        <translation>，占 {psu:,} W 电源的 {share:.0%}</translation>
    </message>
    <message>
        <source>ATX 3.x</source>
        <translation>ATX 3.x</translation>
    </message>
    <message>
        <source>ATX 2.x</source>
        <translation>ATX 2.x</translation>
    </message>
    <message>
        <source>; needs a {w:,} W {gen} supply</source>
        <translation>；需要 {w:,} W 的 {gen} 电源</translation>
    </message>
    <message>
        <source>; about {w:,} W at the wall ({eff:.0%} efficient) of the circuit&apos;s {c:,} W</source>
        <translation>；墙插端约 {w:,} W（转换效率 {eff:.0%}），电路上限为 {c:,} W</translation>
    </message>
</context>
<context>
    <name>Catalog</name>
    <message>
        <source>undated</source>
        <translation>无日期</translation>
    </message>
    <message>
        <source>{n} d</source>
        <translation>{n} 天</translation>
    </message>
    <message>
        <source>{n} mo</source>
        <translation>{n} 个月</translation>
    </message>
    <message>
        <source>{n:.1f} y</source>
        <translation>{n:.1f} 年</translation>
    </message>
</context>
<context>
    <name>CatalogFilterBar</name>
    <message>
        <source>Search name, vendor, architecture, socket…</source>
        <translation>搜索名称、厂商、架构、插槽…</translation>
    </message>
    <message>
        <source>min</source>
        <translation>最低</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最高</translation>
    </message>
    <message>
        <source>Clear filters</source>
        <translation>清除筛选</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Vendor</source>
        <translation>厂商</translation>
    </message>
    <message>
        <source>{label}: any</source>
        <translation>{label}：不限</translation>
    </message>
    <message>
        <source>{label} ≥ </source>
        <translation>{label} ≥ </translation>
    </message>
</context>
<context>
    <name>CatalogSchema</name>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Market</source>
        <translation>市场定位</translation>
    </message>
    <message>
        <source>consumer</source>
        <translation>消费级</translation>
    </message>
    <message>
        <source>workstation</source>
        <translation>工作站</translation>
    </message>
    <message>
        <source>datacenter</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <source>embedded</source>
        <translation>嵌入式</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Compute capability</source>
        <translation>计算能力</translation>
    </message>
    <message>
        <source>AMD gfx target</source>
        <translation>AMD gfx 目标</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Memory type</source>
        <translation>显存类型</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>FP32 (non-tensor)</source>
        <translation>FP32（非张量核心）</translation>
    </message>
    <message>
        <source>TF32 tensor, dense</source>
        <translation>TF32 张量核心，稠密</translation>
    </message>
    <message>
        <source>FP16 tensor, dense, FP32 acc.</source>
        <translation>FP16 张量核心，稠密，FP32 累加</translation>
    </message>
    <message>
        <source>BF16 tensor, dense, FP32 acc.</source>
        <translation>BF16 张量核心，稠密，FP32 累加</translation>
    </message>
    <message>
        <source>BF16 matmul, best measured</source>
        <translation>BF16 矩阵乘法，最佳实测</translation>
    </message>
    <message>
        <source>FP8 tensor, dense</source>
        <translation>FP8 张量核心，稠密</translation>
    </message>
    <message>
        <source>INT8 tensor, dense</source>
        <translation>INT8 张量核心，稠密</translation>
    </message>
    <message>
        <source>Board power</source>
        <translation>整卡功耗</translation>
    </message>
    <message>
        <source>Form factor</source>
        <translation>外形规格</translation>
    </message>
    <message>
        <source>PCIe card</source>
        <translation>PCIe 扩展卡</translation>
    </message>
    <message>
        <source>SXM</source>
        <translation>SXM</translation>
    </message>
    <message>
        <source>OAM</source>
        <translation>OAM</translation>
    </message>
    <message>
        <source>module</source>
        <translation>模组</translation>
    </message>
    <message>
        <source>PCIe generation</source>
        <translation>PCIe 代数</translation>
    </message>
    <message>
        <source>PCIe lanes</source>
        <translation>PCIe 通道数</translation>
    </message>
    <message>
        <source>NVLink / Infinity Fabric (total)</source>
        <translation>NVLink / Infinity Fabric（总计）</translation>
    </message>
    <message>
        <source>Peer-to-peer between cards</source>
        <translation>卡间点对点通信</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Board length</source>
        <translation>板长</translation>
    </message>
    <message>
        <source>Slot width</source>
        <translation>占用槽位</translation>
    </message>
    <message>
        <source>Cooling</source>
        <translation>散热方式</translation>
    </message>
    <message>
        <source>blower</source>
        <translation>涡轮</translation>
    </message>
    <message>
        <source>open-air</source>
        <translation>开放式风冷</translation>
    </message>
    <message>
        <source>passive</source>
        <translation>被动散热</translation>
    </message>
    <message>
        <source>liquid</source>
        <translation>水冷</translation>
    </message>
    <message>
        <source>Power connectors</source>
        <translation>供电接口</translation>
    </message>
    <message>
        <source>ECC memory</source>
        <translation>ECC 显存</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Segment</source>
        <translation>定位</translation>
    </message>
    <message>
        <source>desktop</source>
        <translation>桌面</translation>
    </message>
    <message>
        <source>server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Microarchitecture</source>
        <translation>微架构</translation>
    </message>
    <message>
        <source>Cores</source>
        <translation>核心数</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Base clock</source>
        <translation>基础频率</translation>
    </message>
    <message>
        <source>Boost clock</source>
        <translation>加速频率</translation>
    </message>
    <message>
        <source>Socket</source>
        <translation>插槽</translation>
    </message>
    <message>
        <source>CPU PCIe lanes</source>
        <translation>CPU PCIe 通道数</translation>
    </message>
    <message>
        <source>Memory channels</source>
        <translation>内存通道数</translation>
    </message>
    <message>
        <source>Max memory</source>
        <translation>最大内存</translation>
    </message>
    <message>
        <source>ECC support</source>
        <translation>ECC 支持</translation>
    </message>
    <message>
        <source>TDP</source>
        <translation>TDP</translation>
    </message>
    <message>
        <source>Max package power</source>
        <translation>最大封装功耗</translation>
    </message>
    <message>
        <source>Motherboards</source>
        <translation>主板</translation>
    </message>
    <message>
        <source>Chipset</source>
        <translation>芯片组</translation>
    </message>
    <message>
        <source>x16-length slots</source>
        <translation>x16 长度插槽</translation>
    </message>
    <message>
        <source>Memory slots</source>
        <translation>内存插槽</translation>
    </message>
    <message>
        <source>M.2 slots</source>
        <translation>M.2 插槽</translation>
    </message>
    <message>
        <source>RAM kits</source>
        <translation>内存套装</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模组类型</translation>
    </message>
    <message>
        <source>UDIMM</source>
        <translation>UDIMM</translation>
    </message>
    <message>
        <source>RDIMM</source>
        <translation>RDIMM</translation>
    </message>
    <message>
        <source>SO-DIMM</source>
        <translation>SO-DIMM</translation>
    </message>
    <message>
        <source>Kit capacity</source>
        <translation>套装容量</translation>
    </message>
    <message>
        <source>Modules</source>
        <translation>条数</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>频率</translation>
    </message>
    <message>
        <source>CAS latency</source>
        <translation>CAS 延迟</translation>
    </message>
    <message>
        <source>ECC</source>
        <translation>ECC</translation>
    </message>
    <message>
        <source>SSDs</source>
        <translation>固态硬盘</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>接口</translation>
    </message>
    <message>
        <source>SATA</source>
        <translation>SATA</translation>
    </message>
    <message>
        <source>NVMe</source>
        <translation>NVMe</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>Sequential read</source>
        <translation>顺序读取</translation>
    </message>
    <message>
        <source>Sequential write</source>
        <translation>顺序写入</translation>
    </message>
    <message>
        <source>Random read 4K</source>
        <translation>4K 随机读取</translation>
    </message>
    <message>
        <source>Random write 4K</source>
        <translation>4K 随机写入</translation>
    </message>
    <message>
        <source>Endurance</source>
        <translation>写入寿命</translation>
    </message>
    <message>
        <source>PSUs</source>
        <translation>电源</translation>
    </message>
    <message>
        <source>Rated output</source>
        <translation>额定功率</translation>
    </message>
    <message>
        <source>ATX version</source>
        <translation>ATX 版本</translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation>能效认证</translation>
    </message>
    <message>
        <source>12V-2x6 / 12VHPWR connectors</source>
        <translation>12V-2x6 / 12VHPWR 接口</translation>
    </message>
    <message>
        <source>PCIe 8-pin connectors</source>
        <translation>PCIe 8-pin 接口</translation>
    </message>
    <message>
        <source>Modular</source>
        <translation>模组化</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>机箱</translation>
    </message>
    <message>
        <source>Motherboard support</source>
        <translation>支持的主板</translation>
    </message>
    <message>
        <source>Max GPU length</source>
        <translation>最大显卡长度</translation>
    </message>
    <message>
        <source>Expansion slots</source>
        <translation>扩展槽位</translation>
    </message>
    <message>
        <source>Max CPU cooler height</source>
        <translation>最大 CPU 散热器高度</translation>
    </message>
    <message>
        <source>Max PSU length</source>
        <translation>最大电源长度</translation>
    </message>
    <message>
        <source>eGPU docks</source>
        <translation>外接显卡扩展坞</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>TB3</source>
        <translation>TB3</translation>
    </message>
    <message>
        <source>TB4</source>
        <translation>TB4</translation>
    </message>
    <message>
        <source>USB4</source>
        <translation>USB4</translation>
    </message>
    <message>
        <source>TB5</source>
        <translation>TB5</translation>
    </message>
    <message>
        <source>OCuLink</source>
        <translation>OCuLink</translation>
    </message>
    <message>
        <source>Link rate</source>
        <translation>链路速率</translation>
    </message>
    <message>
        <source>PCIe generation to the card</source>
        <translation>到显卡的 PCIe 代数</translation>
    </message>
    <message>
        <source>PCIe lanes to the card</source>
        <translation>到显卡的 PCIe 通道数</translation>
    </message>
    <message>
        <source>Built-in PSU</source>
        <translation>内置电源</translation>
    </message>
    <message>
        <source>Max GPU power</source>
        <translation>最大显卡功耗</translation>
    </message>
    <message>
        <source>Power delivery to laptop</source>
        <translation>给笔记本的供电</translation>
    </message>
    <message>
        <source>Max GPU slot width</source>
        <translation>最大显卡槽宽</translation>
    </message>
    <message>
        <source>GPU power connectors</source>
        <translation>显卡供电接口</translation>
    </message>
    <message>
        <source>Cloud instances</source>
        <translation>云实例</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <source>Instance type</source>
        <translation>实例类型</translation>
    </message>
    <message>
        <source>GPU (catalog id)</source>
        <translation>GPU（目录 id）</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>单卡显存</translation>
    </message>
    <message>
        <source>GPU interconnect</source>
        <translation>GPU 互联</translation>
    </message>
    <message>
        <source>vCPUs</source>
        <translation>vCPU</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Region priced</source>
        <translation>计价地区</translation>
    </message>
    <message>
        <source>Dual-slot GPUs that fit</source>
        <translation>可装双槽显卡数</translation>
    </message>
    <message>
        <source>Triple-slot GPUs that fit</source>
        <translation>可装三槽显卡数</translation>
    </message>
</context>
<context>
    <name>CatalogTab</name>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Price/performance chart</source>
        <translation>性价比图表</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Select 2 to 4 rows (Ctrl+click) to compare them side by side</source>
        <translation>选择 2 到 4 行（Ctrl+单击）进行并排比较</translation>
    </message>
    <message>
        <source>{shown} of {total} {label}</source>
        <translation>{label}：{shown} / {total}</translation>
    </message>
    <message>
        <source>Compare ({n})</source>
        <translation>比较（{n}）</translation>
    </message>
    <message>
        <source>Price of {id} set to {amount:,.2f} {currency} (your price; revert it any time)</source>
        <translation>{id} 的价格已设为 {amount:,.2f} {currency}（自定价格，可随时恢复）</translation>
    </message>
    <message>
        <source>Price of {id} back to the catalog price</source>
        <translation>{id} 的价格已恢复为硬件目录价格</translation>
    </message>
    <message>
        <source>Imported {n} prices from {name}</source>
        <translation>已从 {name} 导入 {n} 个价格</translation>
    </message>
    <message>
        <source>Edit price…</source>
        <translation>编辑价格…</translation>
    </message>
    <message>
        <source>Revert to catalog price</source>
        <translation>恢复为硬件目录价格</translation>
    </message>
    <message>
        <source>Copy id</source>
        <translation>复制 ID</translation>
    </message>
    <message>
        <source>Compare selected</source>
        <translation>比较所选项</translation>
    </message>
</context>
<context>
    <name>ChecksTable</name>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>fail</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>not checked</source>
        <translation>未检查</translation>
    </message>
    <message>
        <source>Port and enclosure</source>
        <translation>接口与扩展坞</translation>
    </message>
    <message>
        <source>Thunderbolt security</source>
        <translation>Thunderbolt 安全级别</translation>
    </message>
    <message>
        <source>Authorisation</source>
        <translation>授权</translation>
    </message>
    <message>
        <source>Link rate</source>
        <translation>链路速率</translation>
    </message>
    <message>
        <source>OS and driver</source>
        <translation>操作系统与驱动</translation>
    </message>
    <message>
        <source>Card length</source>
        <translation>显卡长度</translation>
    </message>
    <message>
        <source>Card thickness</source>
        <translation>显卡厚度</translation>
    </message>
    <message>
        <source>Card power</source>
        <translation>显卡功耗</translation>
    </message>
    <message>
        <source>Power cables</source>
        <translation>供电线缆</translation>
    </message>
    <message>
        <source>Charging</source>
        <translation>充电</translation>
    </message>
    <message>
        <source>Hot-plug</source>
        <translation>热插拔</translation>
    </message>
    <message>
        <source>Host to device</source>
        <translation>主机到设备</translation>
    </message>
    <message>
        <source>Training step</source>
        <translation>训练步</translation>
    </message>
    <message>
        <source>Workload memory</source>
        <translation>工作负载显存</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>Fix</source>
        <translation>解决办法</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Measured on this machine</source>
        <translation>本机实测</translation>
    </message>
</context>
<context>
    <name>Circuits</name>
    <message>
        <source>North America, 120 V / 15 A</source>
        <translation>北美，120 V / 15 A</translation>
    </message>
    <message>
        <source>North America, 120 V / 20 A</source>
        <translation>北美，120 V / 20 A</translation>
    </message>
    <message>
        <source>China, 220 V / 10 A socket</source>
        <translation>中国，220 V / 10 A 插座</translation>
    </message>
    <message>
        <source>China, 220 V / 16 A socket</source>
        <translation>中国，220 V / 16 A 插座</translation>
    </message>
    <message>
        <source>Europe, 230 V / 16 A</source>
        <translation>欧洲，230 V / 16 A</translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message>
        <source>Compare {kind}</source>
        <translation>比较{kind}</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
</context>
<context>
    <name>CompareTable</name>
    <message>
        <source>Benchmark</source>
        <translation>基准测试</translation>
    </message>
    <message>
        <source>First</source>
        <translation>第一次</translation>
    </message>
    <message>
        <source>Second</source>
        <translation>第二次</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>Second / first</source>
        <translation>第二次 / 第一次</translation>
    </message>
</context>
<context>
    <name>DamagedStoreDialog</name>
    <message>
        <source>gpuconfig cannot use its database:
{problem}</source>
        <translation>gpuconfig 无法使用其数据库：
{problem}</translation>
    </message>
    <message>
        <source>Repair moves this file aside (it is kept, not deleted), builds a new database from the catalog and copies into it your saved builds, prices and settings that can still be read.</source>
        <translation>修复会将此文件移到一旁（保留而不删除），根据硬件目录重建数据库，并将仍可读取的已保存装机方案、价格和设置复制到新数据库中。</translation>
    </message>
    <message>
        <source>Repair</source>
        <translation>修复</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>Egpu</name>
    <message>
        <source>Thunderbolt 3</source>
        <translation>Thunderbolt 3</translation>
    </message>
    <message>
        <source>Thunderbolt 4</source>
        <translation>Thunderbolt 4</translation>
    </message>
    <message>
        <source>USB4 (40 Gb/s)</source>
        <translation>USB4 (40 Gb/s)</translation>
    </message>
    <message>
        <source>USB4 Version 2.0 (80 Gb/s)</source>
        <translation>USB4 Version 2.0 (80 Gb/s)</translation>
    </message>
    <message>
        <source>Thunderbolt 5</source>
        <translation>Thunderbolt 5</translation>
    </message>
    <message>
        <source>OCuLink</source>
        <translation>OCuLink</translation>
    </message>
    <message>
        <source>USB-C without Thunderbolt or USB4</source>
        <translation>USB-C（不支持 Thunderbolt 或 USB4）</translation>
    </message>
    <message>
        <source>Windows</source>
        <translation>Windows</translation>
    </message>
    <message>
        <source>Linux</source>
        <translation>Linux</translation>
    </message>
    <message>
        <source>macOS on an Intel Mac</source>
        <translation>macOS（Intel 芯片的 Mac）</translation>
    </message>
    <message>
        <source>macOS on Apple silicon</source>
        <translation>macOS（Apple 芯片）</translation>
    </message>
    <message>
        <source>will not work</source>
        <translation>无法使用</translation>
    </message>
    <message>
        <source>works, with the warnings below</source>
        <translation>可以使用，但有以下警告</translation>
    </message>
    <message>
        <source>compatible</source>
        <translation>兼容</translation>
    </message>
    <message>
        <source>{part} in the catalog</source>
        <translation>硬件目录中的 {part}</translation>
    </message>
    <message>
        <source>No card chosen: the OS and driver rules need one.</source>
        <translation>未选择显卡：需要先选定显卡才能检查操作系统和驱动规则。</translation>
    </message>
    <message>
        <source>{link} is not hot-pluggable: the card is seen only if it is connected and powered before the laptop starts.</source>
        <translation>{link} 不支持热插拔：只有在笔记本开机前已连接并通电，显卡才能被识别。</translation>
    </message>
    <message>
        <source>Connect and power the enclosure first, then start the laptop; shut down before unplugging.</source>
        <translation>先连接扩展坞并接通电源，再启动笔记本；拔出前请先关机。</translation>
    </message>
    <message>
        <source>{port} carries no PCIe: no eGPU can work on this port.</source>
        <translation>{port} 不传输 PCIe：此接口无法使用任何外接显卡。</translation>
    </message>
    <message>
        <source>Use a Thunderbolt, USB4 or OCuLink port.</source>
        <translation>请使用 Thunderbolt、USB4 或 OCuLink 接口。</translation>
    </message>
    <message>
        <source>No enclosure chosen: the laptop&apos;s port is {port}.</source>
        <translation>未选择扩展坞：笔记本的接口为 {port}。</translation>
    </message>
    <message>
        <source>No rule for {port} with a {link} enclosure.</source>
        <translation>没有关于 {port} 接口搭配 {link} 扩展坞的规则。</translation>
    </message>
    <message>
        <source>{port} port, {dock} ({link}): {reason} Here an enclosure is attached and authorised on this port, so this port tunnels PCIe.</source>
        <translation>{port} 接口，{dock}（{link}）：{reason} 此接口上已连接并授权了扩展坞，因此该接口可以通过隧道传输 PCIe。</translation>
    </message>
    <message>
        <source>{port} port, {dock} ({link}): {reason}</source>
        <translation>{port} 接口，{dock}（{link}）：{reason}</translation>
    </message>
    <message>
        <source>Thunderbolt security level &apos;{level}&apos;: the attached enclosure has been approved.</source>
        <translation>Thunderbolt 安全级别“{level}”：已连接的扩展坞已获批准。</translation>
    </message>
    <message>
        <source>Thunderbolt security level &apos;{level}&apos;: {reason}</source>
        <translation>Thunderbolt 安全级别“{level}”：{reason}</translation>
    </message>
    <message>
        <source>Unknown Thunderbolt security level {level!r}.</source>
        <translation>未知的 Thunderbolt 安全级别 {level!r}。</translation>
    </message>
    <message>
        <source>The enclosure is attached but not authorised: no PCIe tunnel is set up until it is, so the card is not on the PCIe bus.</source>
        <translation>扩展坞已连接但未授权：授权之前不会建立 PCIe 隧道，因此显卡不在 PCIe 总线上。</translation>
    </message>
    <message>
        <source>Approve it in the desktop&apos;s Thunderbolt settings, or `boltctl enroll &lt;uuid&gt;` (or write 1 to its `authorized` file as root).</source>
        <translation>请在桌面环境的 Thunderbolt 设置中批准它，或运行 `boltctl enroll &lt;uuid&gt;`（也可以 root 身份向其 `authorized` 文件写入 1）。</translation>
    </message>
    <message>
        <source>The enclosure is authorised: its PCIe tunnel is up.</source>
        <translation>扩展坞已授权：其 PCIe 隧道已建立。</translation>
    </message>
    <message>
        <source>The Thunderbolt link trained at {trained}, below {link}&apos;s {expected:g} Gb/s (one lane or a slower lane rate): less room for the PCIe tunnel.</source>
        <translation>Thunderbolt 链路协商速率为 {trained}，低于 {link} 的 {expected:g} Gb/s（只有一条通道或通道速率较低）：留给 PCIe 隧道的带宽更少。</translation>
    </message>
    <message>
        <source>Use a certified 40 Gb/s (or faster) Thunderbolt/USB4 cable, at most 0.8 m if passive, in the laptop&apos;s Thunderbolt/USB4 port; then re-plug.</source>
        <translation>请使用经过认证的 40 Gb/s（或更快）Thunderbolt/USB4 线缆（无源线缆不超过 0.8 m），插入笔记本的 Thunderbolt/USB4 接口，然后重新插拔。</translation>
    </message>
    <message>
        <source>The Thunderbolt link trained at {trained}.</source>
        <translation>Thunderbolt 链路协商速率为 {trained}。</translation>
    </message>
    <message>
        <source>No rule for a {vendor} card on {os}.</source>
        <translation>没有关于 {os} 上 {vendor} 显卡的规则。</translation>
    </message>
    <message>
        <source>{vendor} on {os} (PyTorch backend: {backend}): {reason}</source>
        <translation>{os} 上的 {vendor}（PyTorch 后端：{backend}）：{reason}</translation>
    </message>
    <message>
        <source>{vendor} on {os}: {reason}</source>
        <translation>{os} 上的 {vendor}：{reason}</translation>
    </message>
    <message>
        <source>Card length not checked: the catalog has no {dock}&apos;s limit.</source>
        <translation>未检查显卡长度：硬件目录中没有 {dock} 的长度限制。</translation>
    </message>
    <message>
        <source>Card length not checked: the catalog has no {gpu}&apos;s length.</source>
        <translation>未检查显卡长度：硬件目录中没有 {gpu} 的长度。</translation>
    </message>
    <message>
        <source>{gpu}&apos;s length is {size:g} mm; {dock} takes cards up to {limit:g} mm.</source>
        <translation>{gpu} 的长度为 {size:g} mm；{dock} 最长可容纳 {limit:g} mm 的显卡。</translation>
    </message>
    <message>
        <source>{gpu} ({size:g} mm) fits {dock} (up to {limit:g} mm).</source>
        <translation>{gpu}（{size:g} mm）可装入 {dock}（最长 {limit:g} mm）。</translation>
    </message>
    <message>
        <source>A shorter card or a larger enclosure.</source>
        <translation>换一张更短的显卡或更大的扩展坞。</translation>
    </message>
    <message>
        <source>Card thickness not checked: the catalog has no {dock}&apos;s limit.</source>
        <translation>未检查显卡厚度：硬件目录中没有 {dock} 的厚度限制。</translation>
    </message>
    <message>
        <source>Card thickness not checked: the catalog has no {gpu}&apos;s thickness.</source>
        <translation>未检查显卡厚度：硬件目录中没有 {gpu} 的厚度。</translation>
    </message>
    <message>
        <source>{gpu}&apos;s thickness is {size:g} slots; {dock} takes cards up to {limit:g} slots.</source>
        <translation>{gpu} 的厚度为 {size:g} 个插槽；{dock} 最多可容纳 {limit:g} 个插槽厚的显卡。</translation>
    </message>
    <message>
        <source>{gpu} ({size:g} slots) fits {dock} (up to {limit:g} slots).</source>
        <translation>{gpu}（{size:g} 个插槽）可装入 {dock}（最多 {limit:g} 个插槽）。</translation>
    </message>
    <message>
        <source>A thinner card or a larger enclosure.</source>
        <translation>换一张更薄的显卡或更大的扩展坞。</translation>
    </message>
    <message>
        <source>{message} ({why})</source>
        <translation>{message}（{why}）</translation>
    </message>
    <message>
        <source>Measure.</source>
        <translation>请实际测量。</translation>
    </message>
    <message>
        <source>Card power not checked: the catalog has no board power for {gpu}.</source>
        <translation>未检查显卡功耗：硬件目录中没有 {gpu} 的整卡功耗。</translation>
    </message>
    <message>
        <source>{gpu} draws {tdp} W; {dock} is rated to feed a card up to {rated} W.</source>
        <translation>{gpu} 功耗为 {tdp} W；{dock} 的额定供电能力只支持最高 {rated} W 的显卡。</translation>
    </message>
    <message>
        <source>A card within the enclosure&apos;s rating.</source>
        <translation>换一张在扩展坞额定功率范围内的显卡。</translation>
    </message>
    <message>
        <source>{gpu} draws {tdp} W of {dock}&apos;s {psu} W supply, less the {delivery} W it may send to the laptop ({budget} W, {share:.0%} of it).</source>
        <translation>{gpu} 功耗为 {tdp} W；{dock} 的电源为 {psu} W，扣除可能供给笔记本的 {delivery} W 后剩 {budget} W，显卡占其中的 {share:.0%}。</translation>
    </message>
    <message>
        <source>{gpu} draws {tdp} W of {dock}&apos;s {psu} W supply ({budget} W, {share:.0%} of it).</source>
        <translation>{gpu} 功耗为 {tdp} W；{dock} 的电源为 {psu} W（可用 {budget} W），显卡占其中的 {share:.0%}。</translation>
    </message>
    <message>
        <source>Keep the card at or below {share:.0%} of the supply: a card under {watts} W, or lower its power limit (nvidia-smi -pl).</source>
        <translation>让显卡功耗不超过电源的 {share:.0%}：选择功耗低于 {watts} W 的显卡，或降低其功耗上限（nvidia-smi -pl）。</translation>
    </message>
    <message>
        <source>{dock} has no supply of its own: bring one of at least {need} W for {gpu} ({tdp} W), with the card&apos;s power cables.</source>
        <translation>{dock} 没有自带电源：需为 {gpu}（{tdp} W）自备一个至少 {need} W 的电源，并配有显卡所需的供电线。</translation>
    </message>
    <message>
        <source>An ATX 3.x supply of {need} W or more.</source>
        <translation>一个 {need} W 或以上的 ATX 3.x 电源。</translation>
    </message>
    <message>
        <source>Power cables not checked: the catalog lacks the enclosure&apos;s or the card&apos;s.</source>
        <translation>未检查供电线：硬件目录中缺少扩展坞或显卡的供电接口信息。</translation>
    </message>
    <message>
        <source>{dock}: the card&apos;s cables come from your own supply ({cables}).</source>
        <translation>{dock}：显卡的供电线来自您自备的电源（{cables}）。</translation>
    </message>
    <message>
        <source>{gpu} takes {needs}; {dock} has {cables}: use the card&apos;s adapter.</source>
        <translation>{gpu} 需要 {needs}；{dock} 提供 {cables}：请使用显卡附带的转接线。</translation>
    </message>
    <message>
        <source>Use the adapter that came with the card, fully seated.</source>
        <translation>使用显卡附带的转接线，并确保完全插紧。</translation>
    </message>
    <message>
        <source>{gpu} takes {needs}; {dock} has {cables}.</source>
        <translation>{gpu} 需要 {needs}；{dock} 提供 {cables}。</translation>
    </message>
    <message>
        <source>A card with 8-pin PCIe plugs, or an enclosure with a 12V-2x6 cable.</source>
        <translation>换一张使用 8-pin PCIe 供电接口的显卡，或换一个带 12V-2x6 供电线的扩展坞。</translation>
    </message>
    <message>
        <source>{gpu} takes {plugs} PCIe 8-pin plugs; {dock} has {cables}.</source>
        <translation>{gpu} 需要 {plugs} 个 PCIe 8-pin 供电接口；{dock} 提供 {cables}。</translation>
    </message>
    <message>
        <source>A card with fewer power plugs, or another enclosure.</source>
        <translation>换一张供电接口更少的显卡，或换一个扩展坞。</translation>
    </message>
    <message>
        <source>{gpu} ({needs}) is fed by {dock}&apos;s {cables}.</source>
        <translation>{gpu}（{needs}）由 {dock} 的 {cables} 供电。</translation>
    </message>
    <message>
        <source>{link} carries no power: the laptop runs on its own charger.</source>
        <translation>{link} 不提供供电：笔记本需使用自带的充电器。</translation>
    </message>
    <message>
        <source>Charging not checked: the catalog has no power delivery figure for {dock}.</source>
        <translation>未检查充电：硬件目录中没有 {dock} 给笔记本供电的功率数据。</translation>
    </message>
    <message>
        <source>{dock} charges the laptop at up to {delivery} W.</source>
        <translation>{dock} 可为笔记本提供最高 {delivery} W 的充电功率。</translation>
    </message>
    <message>
        <source>{dock} charges at up to {delivery} W; the laptop&apos;s charger gives {charger} W: under load the battery can drain while the eGPU runs.</source>
        <translation>{dock} 最高充电功率为 {delivery} W，而笔记本充电器为 {charger} W：外接显卡运行时，高负载下电池电量可能持续下降。</translation>
    </message>
    <message>
        <source>Keep the laptop&apos;s own charger plugged in as well.</source>
        <translation>请同时插上笔记本自带的充电器。</translation>
    </message>
    <message>
        <source>{dock} charges at up to {delivery} W (laptop charger {charger} W).</source>
        <translation>{dock} 最高充电功率为 {delivery} W（笔记本充电器 {charger} W）。</translation>
    </message>
    <message>
        <source>An eGPU enclosure holds one card.</source>
        <translation>一个外接显卡扩展坞只能容纳一张显卡。</translation>
    </message>
    <message>
        <source>One dock and one GPU per build.</source>
        <translation>每个装机方案只能有一个扩展坞和一个 GPU。</translation>
    </message>
    <message>
        <source>The build does not say which port the laptop has: a {port} port is assumed.</source>
        <translation>装机方案未注明笔记本的接口：假定为 {port} 接口。</translation>
    </message>
    <message>
        <source>Set the laptop&apos;s port in the build (eGPU tab, or &quot;laptop&quot; in the build file).</source>
        <translation>请在装机方案中设置笔记本的接口（在“外接显卡”标签页中，或在装机方案文件的 &quot;laptop&quot; 项中）。</translation>
    </message>
    <message>
        <source>Use a card with more memory, or one of the Workload tab&apos;s fits-if changes (gpuconfig estimate lists them).</source>
        <translation>换一张显存更大的显卡，或采用“工作负载”标签页中“若…则放得下”的某项调整（gpuconfig estimate 会列出这些调整）。</translation>
    </message>
    <message>
        <source>Use a card with more memory, or one of the Workload tab&apos;s fits-if changes; it may run if nothing else uses the card and the estimate is not under, which is what the headroom guards against.</source>
        <translation>换一张显存更大的显卡，或采用“工作负载”标签页中“若…则放得下”的某项调整；如果没有其他程序占用这张显卡且估算没有偏低，也许能运行，而余量正是为了防范这些情况。</translation>
    </message>
    <message>
        <source>{model} {task}, batch {batch} x {seq}</source>
        <translation>{model} {task}，批大小 {batch} x 序列长度 {seq}</translation>
    </message>
    <message>
        <source>not estimated: the workload does not fit the card, so it would not run</source>
        <translation>未估算：该工作负载在这张显卡上放不下，无法运行</translation>
    </message>
    <message>
        <source>this port and enclosure do not work together: no link to time</source>
        <translation>此接口与该扩展坞无法配合使用：没有可计时的链路</translation>
    </message>
    <message>
        <source>no measured copy rate for {link} in catalog/egpu.toml</source>
        <translation>catalog/egpu.toml 中没有 {link} 的实测复制速率</translation>
    </message>
    <message>
        <source>no link to time: choose the port and the enclosure</source>
        <translation>没有可计时的链路：请选择接口和扩展坞</translation>
    </message>
    <message>
        <source>{peak:.1f} GiB per GPU</source>
        <translation>每块 GPU {peak:.1f} GiB</translation>
    </message>
    <message>
        <source>Workload estimate: the model&apos;s trace, as gpuconfig estimate shows it; Fit headroom: {why}</source>
        <translation>工作负载估算：模型的追踪结果，与 gpuconfig estimate 显示的一致；显存余量：{why}</translation>
    </message>
    <message>
        <source>{model} {task} needs {need}; {gpu} has {usable:.1f} GiB usable ({memory:.1f} GiB less {headroom} headroom): it fits, {spare:.1f} GiB to spare</source>
        <translation>{model} {task} 需要 {need}；{gpu} 可用 {usable:.1f} GiB（{memory:.1f} GiB 减去 {headroom} 余量）：放得下，还剩 {spare:.1f} GiB</translation>
    </message>
    <message>
        <source>{model} {task} needs {need}; {gpu} has {usable:.1f} GiB usable ({memory:.1f} GiB less {headroom} headroom): it fits only by using the headroom</source>
        <translation>{model} {task} 需要 {need}；{gpu} 可用 {usable:.1f} GiB（{memory:.1f} GiB 减去 {headroom} 余量）：只有占用余量才放得下</translation>
    </message>
    <message>
        <source>{model} {task} needs {need}; {gpu} has {usable:.1f} GiB usable ({memory:.1f} GiB less {headroom} headroom): it does not fit</source>
        <translation>{model} {task} 需要 {need}；{gpu} 可用 {usable:.1f} GiB（{memory:.1f} GiB 减去 {headroom} 余量）：放不下</translation>
    </message>
    <message>
        <source>link {lanes} x {lane_gbps:g} Gb/s</source>
        <translation>链路 {lanes} x {lane_gbps:g} Gb/s</translation>
    </message>
    <message>
        <source>security {level}</source>
        <translation>安全级别 {level}</translation>
    </message>
    <message>
        <source>Host: {name} ({facts})</source>
        <translation>主机：{name}（{facts}）</translation>
    </message>
    <message>
        <source>note: {note}</source>
        <translation>注：{note}</translation>
    </message>
    <message>
        <source>Host: {reason}</source>
        <translation>主机：{reason}</translation>
    </message>
    <message>
        <source>{port} with {parts}: {verdict}; the workload does not fit the card</source>
        <translation>{port} 搭配 {parts}：{verdict}；该工作负载在这张显卡上放不下</translation>
    </message>
    <message>
        <source>{port} with {parts}: {verdict}</source>
        <translation>{port} 搭配 {parts}：{verdict}</translation>
    </message>
    <message>
        <source>fix: {fix}</source>
        <translation>解决方法：{fix}</translation>
    </message>
    <message>
        <source>{workload}: fits the card</source>
        <translation>{workload}：这张显卡放得下</translation>
    </message>
    <message>
        <source>{workload}: does not fit the card</source>
        <translation>{workload}：这张显卡放不下</translation>
    </message>
    <message>
        <source>headroom: {percent}, {why}</source>
        <translation>余量：{percent}，{why}</translation>
    </message>
    <message>
        <source>Host to device over {link}: about {egpu:g} GB/s measured; the same card in a desktop {slot} slot: {desktop:.3g} GB/s ({ratio:.0%}).</source>
        <translation>经 {link} 从主机到设备：实测约 {egpu:g} GB/s；同一显卡插在台式机 {slot} 插槽中：{desktop:.3g} GB/s（{ratio:.0%}）。</translation>
    </message>
    <message>
        <source>{workload}: {bytes} cross the link per step; the step takes {step:,.1f} ms of compute, the copy {egpu:,.2f} ms on the eGPU against {desktop:,.2f} ms in a desktop.</source>
        <translation>{workload}：每步有 {bytes} 经过链路；每步计算耗时 {step:,.1f} ms，复制在外接显卡上耗时 {egpu:,.2f} ms，在台式机中为 {desktop:,.2f} ms。</translation>
    </message>
    <message>
        <source>expected slowdown: {serial:.1%} (copy before each step), {overlapped:.1%} with a prefetching loader; loading the weights once: {load_egpu:,.1f} s against {load_desktop:,.1f} s.</source>
        <translation>预计降速：{serial:.1%}（每步前复制），使用预取数据的加载器时为 {overlapped:.1%}；一次性加载权重：{load_egpu:,.1f} s，台式机为 {load_desktop:,.1f} s。</translation>
    </message>
    <message>
        <source>slowdown: {note}</source>
        <translation>降速：{note}</translation>
    </message>
    <message>
        <source>Measured:</source>
        <translation>实测：</translation>
    </message>
    <message>
        <source>likely causes: {causes}</source>
        <translation>可能原因：{causes}</translation>
    </message>
    <message>
        <source>The port: laptops often wire only some USB-C ports to the Thunderbolt/USB4 controller; use the one marked with the Thunderbolt or USB4 40 logo, directly, not through a hub or dock.</source>
        <translation>接口：笔记本通常只有部分 USB-C 接口连接到 Thunderbolt/USB4 控制器；请使用带 Thunderbolt 或 USB4 40 标识的接口，并直接连接，不要经过集线器或扩展坞。</translation>
    </message>
    <message>
        <source>The power mode: on battery or a power-saving plan the link and the card may clock down.</source>
        <translation>电源模式：使用电池或节能电源计划时，链路和显卡可能降频。</translation>
    </message>
    <message>
        <source>PCIe {gen}.0 x{lanes} (assumed)</source>
        <translation>PCIe {gen}.0 x{lanes}（假定）</translation>
    </message>
    <message>
        <source>input tensors of one step (traced) over the link&apos;s measured copy rate; the step&apos;s compute from the estimator. Serial: the copy waits on the same stream ({source}). No CPU offload or second GPU is modelled, so nothing else crosses the link.</source>
        <translation>一步的输入张量（追踪所得）除以链路的实测复制速率；该步的计算时间来自估算器。串行：复制在同一 stream 上等待（{source}）。未模拟 CPU 卸载或第二块 GPU，因此没有其他数据经过链路。</translation>
    </message>
    <message>
        <source>the estimate has no step time for this card</source>
        <translation>估算中没有这张显卡的单步时间</translation>
    </message>
    <message>
        <source>this trace does not record the input bytes: estimate again</source>
        <translation>此追踪结果未记录输入字节数：请重新估算</translation>
    </message>
    <message>
        <source>The Thunderbolt link trained at {lanes} x {lane_gbps:g} Gb/s: a 20 Gb/s cable or a port that is not {link} ({source}).</source>
        <translation>Thunderbolt 链路协商速率为 {lanes} x {lane_gbps:g} Gb/s：可能是 20 Gb/s 线缆，或接口不是 {link}（{source}）。</translation>
    </message>
    <message>
        <source>The PCIe tunnel is x{lanes}, not x{link_lanes} ({source}).</source>
        <translation>PCIe 隧道为 x{lanes}，而非 x{link_lanes}（{source}）。</translation>
    </message>
    <message>
        <source>{measured:.2g} GB/s is about half the usual {typical:g} GB/s: the pattern of a PCIe x2 tunnel (some laptops wire their Thunderbolt controller with two lanes) or a link at half its rate.</source>
        <translation>{measured:.2g} GB/s 约为常见值 {typical:g} GB/s 的一半：符合 PCIe x2 隧道的特征（部分笔记本的 Thunderbolt 控制器只接了两条通道），或链路只以一半速率运行。</translation>
    </message>
    <message>
        <source>{measured:.2g} GB/s is a quarter or less of the usual {typical:g} GB/s: an x1 tunnel, or other devices (a display, storage) sharing the controller&apos;s bandwidth.</source>
        <translation>{measured:.2g} GB/s 仅为常见值 {typical:g} GB/s 的四分之一或更低：可能是 x1 隧道，或有其他设备（显示器、存储设备）在共享控制器的带宽。</translation>
    </message>
    <message>
        <source>the host-to-device test did not run</source>
        <translation>主机到设备测试未运行</translation>
    </message>
    <message>
        <source>Nothing crossed a link: {why}.</source>
        <translation>没有数据经过链路：{why}。</translation>
    </message>
    <message>
        <source>Host to device {measured:.3g} GB/s; no link to judge it by.</source>
        <translation>主机到设备 {measured:.3g} GB/s；没有可用于评判的链路。</translation>
    </message>
    <message>
        <source>Host to device {measured:.3g} GB/s (pinned); good on {link} is at least {good:g} GB/s; {link} usually gives {typical:g} GB/s.</source>
        <translation>主机到设备 {measured:.3g} GB/s（锁页内存）；在 {link} 上至少达到 {good:g} GB/s 才算良好；{link} 通常可达 {typical:g} GB/s。</translation>
    </message>
    <message>
        <source>Host to device {measured:.3g} GB/s (pinned); good on {link} is at least {good:g} GB/s.</source>
        <translation>主机到设备 {measured:.3g} GB/s（锁页内存）；在 {link} 上至少达到 {good:g} GB/s 才算良好。</translation>
    </message>
    <message>
        <source>The training step with copies from the host did not run.</source>
        <translation>从主机复制数据的训练步测试未运行。</translation>
    </message>
    <message>
        <source>The step ran ({mib:.1f} MiB per step; {fed:,.0f} samples/s with the batch copied, {resident:,.0f} without), but no link was crossed: no GPU.</source>
        <translation>训练步已运行（每步 {mib:.1f} MiB；复制批数据时 {fed:,.0f} 样本/s，不复制时 {resident:,.0f}），但没有经过链路：没有 GPU。</translation>
    </message>
    <message>
        <source>Copying each batch ({mib:.1f} MiB per step) from the host made the training step {lost:.0%} slower; the measured copy rate predicts {expected:.0%}.</source>
        <translation>从主机复制每个批次（每步 {mib:.1f} MiB）使训练步变慢了 {lost:.0%}；按实测复制速率预计为 {expected:.0%}。</translation>
    </message>
    <message>
        <source>The step loses more than the copy explains: the CPU may be starved (power mode), or the copy competes with other traffic on the controller (a display or storage on the same enclosure).</source>
        <translation>训练步变慢的幅度超出了复制所能解释的范围：CPU 可能供给不足（电源模式），或复制与控制器上的其他流量争用带宽（同一扩展坞上的显示器或存储设备）。</translation>
    </message>
</context>
<context>
    <name>EgpuData</name>
    <message>
        <source>Thunderbolt 3 on both ends: the enclosure gets up to PCIe 3.0 x4 over the 40 Gb/s link (some older laptops wire only x2, which halves it).</source>
        <translation>两端均为 Thunderbolt 3：扩展坞通过 40 Gb/s 链路最多获得 PCIe 3.0 x4（部分老款笔记本只接了 x2，带宽减半）。</translation>
    </message>
    <message>
        <source>Thunderbolt 4 accessories work with Thunderbolt 3 computers; the pair runs at Thunderbolt 3&apos;s PCIe 3.0 x4 (at most 32 Gb/s).</source>
        <translation>Thunderbolt 4 配件可用于 Thunderbolt 3 电脑；两者以 Thunderbolt 3 的 PCIe 3.0 x4 运行（最高 32 Gb/s）。</translation>
    </message>
    <message>
        <source>A USB4 enclosure works on a Thunderbolt 3 laptop only if the enclosure implements Thunderbolt 3 compatibility, which the USB4 spec makes optional for devices.</source>
        <translation>USB4 扩展坞只有在实现了 Thunderbolt 3 兼容时才能用于 Thunderbolt 3 笔记本，而 USB4 规范对设备而言将其列为可选功能。</translation>
    </message>
    <message>
        <source>Check that the enclosure&apos;s maker lists Thunderbolt 3 hosts as supported, or use a Thunderbolt 3/4 enclosure.</source>
        <translation>请确认扩展坞厂商将 Thunderbolt 3 主机列为受支持，或改用 Thunderbolt 3/4 扩展坞。</translation>
    </message>
    <message>
        <source>Thunderbolt 5 enclosures are backward compatible, but on a Thunderbolt 3 port the link stays 40 Gb/s with PCIe 3.0 x4, about half of what the enclosure can do.</source>
        <translation>Thunderbolt 5 扩展坞向下兼容，但在 Thunderbolt 3 接口上链路仍为 40 Gb/s、PCIe 3.0 x4，约为扩展坞自身能力的一半。</translation>
    </message>
    <message>
        <source>Expect TB3 speed (about 2.4-3.9 GB/s host to device); a Thunderbolt 5 laptop is needed for TB5 speed.</source>
        <translation>预计为 TB3 速度（主机到设备约 2.4-3.9 GB/s）；要达到 TB5 速度需要 Thunderbolt 5 笔记本。</translation>
    </message>
    <message>
        <source>An OCuLink enclosure needs an OCuLink port (or an M.2 slot with an adapter); a Thunderbolt port cannot drive it.</source>
        <translation>OCuLink 扩展坞需要 OCuLink 接口（或 M.2 插槽加转接卡）；Thunderbolt 接口无法驱动它。</translation>
    </message>
    <message>
        <source>Use a Thunderbolt enclosure, or add an OCuLink port through a free M.2 NVMe slot with an M.2-to-OCuLink adapter.</source>
        <translation>请改用 Thunderbolt 扩展坞，或利用空闲的 M.2 NVMe 插槽，通过 M.2 转 OCuLink 转接卡增加一个 OCuLink 接口。</translation>
    </message>
    <message>
        <source>Thunderbolt 4 hosts must accept Thunderbolt 3 devices; the enclosure runs at Thunderbolt 3&apos;s PCIe 3.0 x4.</source>
        <translation>Thunderbolt 4 主机必须兼容 Thunderbolt 3 设备；扩展坞以 Thunderbolt 3 的 PCIe 3.0 x4 运行。</translation>
    </message>
    <message>
        <source>Thunderbolt 4 on both ends: certified hosts must provide 32 Gb/s of PCIe (PCIe 3.0 x4) to the enclosure.</source>
        <translation>两端均为 Thunderbolt 4：经过认证的主机必须为扩展坞提供 32 Gb/s 的 PCIe 带宽（PCIe 3.0 x4）。</translation>
    </message>
    <message>
        <source>Thunderbolt 4 is USB4-compliant and always tunnels PCIe, so a USB4 enclosure gets its 40 Gb/s link with PCIe.</source>
        <translation>Thunderbolt 4 符合 USB4 规范并始终通过隧道传输 PCIe，因此 USB4 扩展坞可以获得带 PCIe 的 40 Gb/s 链路。</translation>
    </message>
    <message>
        <source>A Thunderbolt 5 enclosure works on a Thunderbolt 4 port but falls back to the 40 Gb/s link with PCIe 3.0 x4, about half its own speed.</source>
        <translation>Thunderbolt 5 扩展坞可用于 Thunderbolt 4 接口，但会回落到 40 Gb/s 链路、PCIe 3.0 x4，约为其自身速度的一半。</translation>
    </message>
    <message>
        <source>Expect TB4 speed (about 2.4-3.9 GB/s host to device); a Thunderbolt 5 laptop is needed for TB5 speed.</source>
        <translation>预计为 TB4 速度（主机到设备约 2.4-3.9 GB/s）；要达到 TB5 速度需要 Thunderbolt 5 笔记本。</translation>
    </message>
    <message>
        <source>Use a Thunderbolt/USB4 enclosure, or add an OCuLink port through a free M.2 NVMe slot with an M.2-to-OCuLink adapter.</source>
        <translation>请改用 Thunderbolt/USB4 扩展坞，或利用空闲的 M.2 NVMe 插槽，通过 M.2 转 OCuLink 转接卡增加一个 OCuLink 接口。</translation>
    </message>
    <message>
        <source>Thunderbolt 3 compatibility is optional for USB4 hosts (Windows 11 certified USB4 hosts must have it), so a Thunderbolt 3 enclosure may not connect on every USB4 laptop.</source>
        <translation>Thunderbolt 3 兼容对 USB4 主机而言是可选的（通过 Windows 11 认证的 USB4 主机必须支持），因此 Thunderbolt 3 扩展坞未必能在所有 USB4 笔记本上连接。</translation>
    </message>
    <message>
        <source>Check the laptop&apos;s spec or manual for &apos;Thunderbolt 3 compatible&apos; USB4 ports; if it is not listed, prefer a USB4 or Thunderbolt 4 enclosure.</source>
        <translation>请在笔记本的规格或手册中查找 &apos;Thunderbolt 3 compatible&apos;（兼容 Thunderbolt 3）的 USB4 接口；若未列出，建议选用 USB4 或 Thunderbolt 4 扩展坞。</translation>
    </message>
    <message>
        <source>A Thunderbolt 4 enclosure talks USB4, but it only gets a GPU link if the laptop&apos;s USB4 port tunnels PCIe, which the USB4 spec leaves optional.</source>
        <translation>Thunderbolt 4 扩展坞使用 USB4 通信，但只有在笔记本的 USB4 接口支持 PCIe 隧道时才能获得显卡链路，而 USB4 规范将此列为可选功能。</translation>
    </message>
    <message>
        <source>Check the laptop supports PCIe tunnelling / eGPUs on that USB4 port (Windows 11 certified USB4 laptops must); on Linux, also check the Thunderbolt security level is not &apos;nopcie&apos;.</source>
        <translation>请确认笔记本在该 USB4 接口上支持 PCIe 隧道/外接显卡（通过 Windows 11 认证的 USB4 笔记本必须支持）；在 Linux 上，还需确认 Thunderbolt 安全级别不是 &apos;nopcie&apos;。</translation>
    </message>
    <message>
        <source>USB4 on both ends works for an eGPU only if the laptop&apos;s USB4 port tunnels PCIe, an optional USB4 feature that Windows 11 certification makes mandatory.</source>
        <translation>两端均为 USB4 时，只有笔记本的 USB4 接口支持 PCIe 隧道才能使用外接显卡；这是 USB4 的可选功能，但 Windows 11 认证要求必须支持。</translation>
    </message>
    <message>
        <source>Check the laptop&apos;s spec for PCIe tunnelling or eGPU support on USB4 and that the port is 40 Gb/s, not 20 Gb/s.</source>
        <translation>请在笔记本规格中确认 USB4 支持 PCIe 隧道或外接显卡，并确认该接口为 40 Gb/s 而非 20 Gb/s。</translation>
    </message>
    <message>
        <source>A Thunderbolt 5 enclosure on a 40 Gb/s USB4 port runs at most at the USB4 link&apos;s speed, and only if the port tunnels PCIe.</source>
        <translation>Thunderbolt 5 扩展坞接在 40 Gb/s USB4 接口上时，最多只能以 USB4 链路的速度运行，且前提是该接口支持 PCIe 隧道。</translation>
    </message>
    <message>
        <source>Check the USB4 port tunnels PCIe; expect 40 Gb/s-class speed (about 2.4-3.9 GB/s host to device), not Thunderbolt 5.</source>
        <translation>请确认该 USB4 接口支持 PCIe 隧道；预计为 40 Gb/s 级别的速度（主机到设备约 2.4-3.9 GB/s），而不是 Thunderbolt 5 的速度。</translation>
    </message>
    <message>
        <source>An OCuLink enclosure needs an OCuLink port (or an M.2 slot with an adapter); a USB4 port cannot drive it.</source>
        <translation>OCuLink 扩展坞需要 OCuLink 接口（或 M.2 插槽加转接卡）；USB4 接口无法驱动它。</translation>
    </message>
    <message>
        <source>Use a USB4/Thunderbolt enclosure, or add an OCuLink port through a free M.2 NVMe slot with an M.2-to-OCuLink adapter.</source>
        <translation>请改用 USB4/Thunderbolt 扩展坞，或利用空闲的 M.2 NVMe 插槽，通过 M.2 转 OCuLink 转接卡增加一个 OCuLink 接口。</translation>
    </message>
    <message>
        <source>USB4 Version 2.0 is announced as backward compatible with Thunderbolt 3, but Thunderbolt 3 support is optional for USB4 hosts, so check the laptop.</source>
        <translation>USB4 Version 2.0 宣称向下兼容 Thunderbolt 3，但 Thunderbolt 3 支持对 USB4 主机而言是可选的，请检查笔记本是否支持。</translation>
    </message>
    <message>
        <source>Check the laptop&apos;s spec for Thunderbolt 3 compatibility; expect Thunderbolt 3 speed (PCIe 3.0 x4) at best.</source>
        <translation>请在笔记本规格中确认是否兼容 Thunderbolt 3；最多只能达到 Thunderbolt 3 的速度（PCIe 3.0 x4）。</translation>
    </message>
    <message>
        <source>A Thunderbolt 4 enclosure runs as a 40 Gb/s USB4 device here, and only if the laptop&apos;s USB4 port tunnels PCIe.</source>
        <translation>Thunderbolt 4 扩展坞在此处作为 40 Gb/s USB4 设备运行，且前提是笔记本的 USB4 接口支持 PCIe 隧道。</translation>
    </message>
    <message>
        <source>Check the laptop supports PCIe tunnelling / eGPUs on that port; expect 40 Gb/s-class speed.</source>
        <translation>请确认笔记本在该接口上支持 PCIe 隧道/外接显卡；预计为 40 Gb/s 级别的速度。</translation>
    </message>
    <message>
        <source>A 40 Gb/s USB4 enclosure runs at USB4 v1 speed on a USB4 v2 port, and only if the port tunnels PCIe.</source>
        <translation>40 Gb/s USB4 扩展坞接在 USB4 v2 接口上时以 USB4 v1 的速度运行，且前提是该接口支持 PCIe 隧道。</translation>
    </message>
    <message>
        <source>Check the laptop supports PCIe tunnelling / eGPUs on that port.</source>
        <translation>请确认笔记本在该接口上支持 PCIe 隧道/外接显卡。</translation>
    </message>
    <message>
        <source>Thunderbolt 5 is built on USB4 Version 2.0, so the 80 Gb/s link can form, but a USB4 v2 laptop that is not Thunderbolt 5 certified is not required to give the enclosure 64 Gb/s of PCIe.</source>
        <translation>Thunderbolt 5 基于 USB4 Version 2.0，因此可以建立 80 Gb/s 链路，但未通过 Thunderbolt 5 认证的 USB4 v2 笔记本不一定会为扩展坞提供 64 Gb/s 的 PCIe 带宽。</translation>
    </message>
    <message>
        <source>Check the laptop&apos;s spec for PCIe tunnelling and its PCIe rate; measure host-to-device speed after connecting.</source>
        <translation>请在笔记本规格中确认是否支持 PCIe 隧道及其 PCIe 速率；连接后实测主机到设备的速度。</translation>
    </message>
    <message>
        <source>Thunderbolt 5 supports earlier Thunderbolt devices; the enclosure runs at Thunderbolt 3&apos;s PCIe 3.0 x4.</source>
        <translation>Thunderbolt 5 支持早期的 Thunderbolt 设备；扩展坞以 Thunderbolt 3 的 PCIe 3.0 x4 运行。</translation>
    </message>
    <message>
        <source>Thunderbolt 5 supports Thunderbolt 4 devices; the enclosure runs at Thunderbolt 4&apos;s 40 Gb/s with PCIe 3.0 x4.</source>
        <translation>Thunderbolt 5 支持 Thunderbolt 4 设备；扩展坞以 Thunderbolt 4 的 40 Gb/s、PCIe 3.0 x4 运行。</translation>
    </message>
    <message>
        <source>Thunderbolt 5 is built on USB4 Version 2.0 and tunnels PCIe, so a 40 Gb/s USB4 enclosure works at its own USB4 speed.</source>
        <translation>Thunderbolt 5 基于 USB4 Version 2.0 并通过隧道传输 PCIe，因此 40 Gb/s USB4 扩展坞可以按其自身的 USB4 速度工作。</translation>
    </message>
    <message>
        <source>Thunderbolt 5 on both ends: 80 Gb/s with 64 Gb/s of PCIe (PCIe 4.0 x4), about twice Thunderbolt 4.</source>
        <translation>两端均为 Thunderbolt 5：80 Gb/s 链路，其中 PCIe 带宽为 64 Gb/s（PCIe 4.0 x4），约为 Thunderbolt 4 的两倍。</translation>
    </message>
    <message>
        <source>Use a Thunderbolt enclosure (a TB5 one gives the most on this port), or add an OCuLink port through a free M.2 NVMe slot with an M.2-to-OCuLink adapter.</source>
        <translation>请改用 Thunderbolt 扩展坞（在此接口上 TB5 扩展坞性能最佳），或利用空闲的 M.2 NVMe 插槽，通过 M.2 转 OCuLink 转接卡增加一个 OCuLink 接口。</translation>
    </message>
    <message>
        <source>An OCuLink port carries bare PCIe with no Thunderbolt controller, so a Thunderbolt enclosure cannot plug into it.</source>
        <translation>OCuLink 接口直接传输 PCIe，没有 Thunderbolt 控制器，因此 Thunderbolt 扩展坞无法接入。</translation>
    </message>
    <message>
        <source>Use an OCuLink enclosure (or the laptop&apos;s Thunderbolt/USB4 port, if it has one).</source>
        <translation>请改用 OCuLink 扩展坞（或使用笔记本的 Thunderbolt/USB4 接口，如果有的话）。</translation>
    </message>
    <message>
        <source>An OCuLink port carries bare PCIe with no USB4 controller, so a USB4 enclosure cannot plug into it.</source>
        <translation>OCuLink 接口直接传输 PCIe，没有 USB4 控制器，因此 USB4 扩展坞无法接入。</translation>
    </message>
    <message>
        <source>An OCuLink port carries bare PCIe with no Thunderbolt controller, so a Thunderbolt 5 enclosure cannot plug into it.</source>
        <translation>OCuLink 接口直接传输 PCIe，没有 Thunderbolt 控制器，因此 Thunderbolt 5 扩展坞无法接入。</translation>
    </message>
    <message>
        <source>OCuLink on both ends gives the card a direct PCIe 4.0 x4 link, the fastest external option, but it is not hot-pluggable and does not charge the laptop.</source>
        <translation>两端均为 OCuLink 时，显卡获得直连的 PCIe 4.0 x4 链路，是最快的外接方案，但不支持热插拔，也不能为笔记本充电。</translation>
    </message>
    <message>
        <source>This USB-C port only speaks USB 3.x, which cannot carry PCIe, so the graphics card in a Thunderbolt enclosure is never seen.</source>
        <translation>此 USB-C 接口只支持 USB 3.x，无法传输 PCIe，因此 Thunderbolt 扩展坞中的显卡永远不会被识别。</translation>
    </message>
    <message>
        <source>Use a Thunderbolt or USB4 port (look for the lightning-bolt or USB4 logo in the laptop&apos;s spec), or an OCuLink/M.2 route.</source>
        <translation>请使用 Thunderbolt 或 USB4 接口（在笔记本规格中查找闪电或 USB4 标识），或采用 OCuLink/M.2 方案。</translation>
    </message>
    <message>
        <source>Use a Thunderbolt or USB4 port, or an OCuLink/M.2 route.</source>
        <translation>请使用 Thunderbolt 或 USB4 接口，或采用 OCuLink/M.2 方案。</translation>
    </message>
    <message>
        <source>This USB-C port only speaks USB 3.x, which cannot carry PCIe, so a USB4 enclosure cannot present its graphics card.</source>
        <translation>此 USB-C 接口只支持 USB 3.x，无法传输 PCIe，因此 USB4 扩展坞无法将其中的显卡提供给系统。</translation>
    </message>
    <message>
        <source>Use a USB4 or Thunderbolt port, or an OCuLink/M.2 route.</source>
        <translation>请使用 USB4 或 Thunderbolt 接口，或采用 OCuLink/M.2 方案。</translation>
    </message>
    <message>
        <source>An OCuLink enclosure needs an OCuLink port (or an M.2 slot with an adapter); a USB-C port cannot drive it.</source>
        <translation>OCuLink 扩展坞需要 OCuLink 接口（或 M.2 插槽加转接卡）；USB-C 接口无法驱动它。</translation>
    </message>
    <message>
        <source>Add an OCuLink port through a free M.2 NVMe slot with an M.2-to-OCuLink adapter, if the laptop has one.</source>
        <translation>如果笔记本有空闲的 M.2 NVMe 插槽，可通过 M.2 转 OCuLink 转接卡增加一个 OCuLink 接口。</translation>
    </message>
    <message>
        <source>PyTorch publishes CUDA builds for Windows, and Windows can run CUDA on an NVIDIA card in a Thunderbolt/USB4 enclosure.</source>
        <translation>PyTorch 提供 Windows 版的 CUDA 构建，Windows 也能在 Thunderbolt/USB4 扩展坞中的 NVIDIA 显卡上运行 CUDA。</translation>
    </message>
    <message>
        <source>PyTorch&apos;s own install page says ROCm is not available on Windows; AMD publishes its own Windows PyTorch wheels for supported Radeon cards, outside pytorch.org.</source>
        <translation>PyTorch 官方安装页面说明 ROCm 不支持 Windows；AMD 在 pytorch.org 之外为受支持的 Radeon 显卡单独发布了 Windows 版 PyTorch wheel 包。</translation>
    </message>
    <message>
        <source>Use AMD&apos;s Windows PyTorch wheels (rocm.docs.amd.com, Radeon/Ryzen install guide) if your card is on AMD&apos;s list, or run Linux for PyTorch&apos;s official ROCm builds.</source>
        <translation>如果您的显卡在 AMD 的支持列表中，请使用 AMD 的 Windows 版 PyTorch wheel 包（rocm.docs.amd.com，Radeon/Ryzen 安装指南），或改用 Linux 以使用 PyTorch 官方的 ROCm 构建。</translation>
    </message>
    <message>
        <source>PyTorch&apos;s CUDA builds run on Linux and the NVIDIA driver sees a Thunderbolt eGPU once the enclosure is authorised; do not unplug it while the driver is loaded.</source>
        <translation>PyTorch 的 CUDA 构建可在 Linux 上运行，扩展坞授权后 NVIDIA 驱动即可识别 Thunderbolt 外接显卡；驱动加载期间请勿拔出。</translation>
    </message>
    <message>
        <source>PyTorch&apos;s ROCm builds are Linux-only and can drive an AMD eGPU, but ROCm needs PCIe atomics through every bridge on the way and AMD has not tested Thunderbolt enclosures.</source>
        <translation>PyTorch 的 ROCm 构建仅支持 Linux，可以驱动 AMD 外接显卡，但 ROCm 要求沿途每个桥都支持 PCIe 原子操作，且 AMD 未测试过 Thunderbolt 扩展坞。</translation>
    </message>
    <message>
        <source>Use a GPU on AMD&apos;s ROCm support list; after connecting run &apos;dmesg | grep kfd&apos; - &apos;PCI rejects atomics&apos; means ROCm cannot use the card through this enclosure/host.</source>
        <translation>请使用 AMD ROCm 支持列表中的 GPU；连接后运行 &apos;dmesg | grep kfd&apos;，若出现 &apos;PCI rejects atomics&apos;，说明 ROCm 无法通过此扩展坞/主机使用该显卡。</translation>
    </message>
    <message>
        <source>macOS has no CUDA for PyTorch, and Apple&apos;s own eGPU support on Intel Macs covers only selected AMD cards, not NVIDIA.</source>
        <translation>macOS 上没有可供 PyTorch 使用的 CUDA，而 Apple 在 Intel Mac 上的外接显卡支持仅涵盖部分 AMD 显卡，不包括 NVIDIA。</translation>
    </message>
    <message>
        <source>Run Windows or Linux on a PC for an NVIDIA eGPU with PyTorch.</source>
        <translation>如需在 PyTorch 中使用 NVIDIA 外接显卡，请在 PC 上运行 Windows 或 Linux。</translation>
    </message>
    <message>
        <source>Intel Macs supported AMD eGPUs and PyTorch&apos;s MPS backend once listed &apos;Mac computers with Apple silicon or AMD GPUs&apos;, but PyTorch stopped shipping Intel-Mac builds after 2.2 and Apple now lists only Apple silicon.</source>
        <translation>Intel Mac 曾支持 AMD 外接显卡，PyTorch 的 MPS 后端也曾注明支持 &apos;Mac computers with Apple silicon or AMD GPUs&apos;，但 PyTorch 在 2.2 之后不再发布 Intel Mac 版本，Apple 现在也只列出 Apple 芯片。</translation>
    </message>
    <message>
        <source>Pin torch 2.2.x (the last Intel-Mac wheel) on macOS 12.3 or later, or run Linux with ROCm on the same eGPU for a current PyTorch.</source>
        <translation>在 macOS 12.3 或更高版本上固定使用 torch 2.2.x（最后一个 Intel Mac wheel 包），或在同一外接显卡上运行 Linux 和 ROCm 以使用最新的 PyTorch。</translation>
    </message>
    <message>
        <source>Macs with Apple silicon do not support eGPUs for macOS apps, and macOS has no CUDA, so PyTorch cannot use an NVIDIA eGPU.</source>
        <translation>Apple 芯片的 Mac 不支持 macOS 应用使用外接显卡，且 macOS 上没有 CUDA，因此 PyTorch 无法使用 NVIDIA 外接显卡。</translation>
    </message>
    <message>
        <source>Use the Mac&apos;s own GPU through PyTorch&apos;s MPS backend, or put the NVIDIA card in a Windows/Linux PC.</source>
        <translation>请通过 PyTorch 的 MPS 后端使用 Mac 自带的 GPU，或将 NVIDIA 显卡装到 Windows/Linux PC 中。</translation>
    </message>
    <message>
        <source>Macs with Apple silicon do not support eGPUs for macOS apps; PyTorch&apos;s MPS backend uses only the Mac&apos;s built-in Apple GPU.</source>
        <translation>Apple 芯片的 Mac 不支持 macOS 应用使用外接显卡；PyTorch 的 MPS 后端只使用 Mac 内置的 Apple GPU。</translation>
    </message>
    <message>
        <source>Use the Mac&apos;s own GPU through MPS, or put the AMD card in a Linux PC for ROCm.</source>
        <translation>请通过 MPS 使用 Mac 自带的 GPU，或将 AMD 显卡装到 Linux PC 中使用 ROCm。</translation>
    </message>
    <message>
        <source>All devices are connected automatically by the firmware, so the enclosure&apos;s PCIe tunnel (and the GPU) appears without approval.</source>
        <translation>固件会自动连接所有设备，因此扩展坞的 PCIe 隧道（以及 GPU）无需批准即会出现。</translation>
    </message>
    <message>
        <source>Each new device must be approved before its PCIe tunnel is created; until then the GPU does not appear.</source>
        <translation>每个新设备都必须先获批准才会建立 PCIe 隧道；在此之前 GPU 不会出现。</translation>
    </message>
    <message>
        <source>Approve the enclosure: boltctl enroll &lt;uuid&gt; (stores it and re-authorises it on every plug), or as root: echo 1 &gt; /sys/bus/thunderbolt/devices/0-1/authorized (use your device&apos;s directory).</source>
        <translation>批准扩展坞：boltctl enroll &lt;uuid&gt;（会保存该设备并在每次插入时重新授权），或以 root 身份运行：echo 1 &gt; /sys/bus/thunderbolt/devices/0-1/authorized（请使用您设备对应的目录）。</translation>
    </message>
    <message>
        <source>Each new device must be approved, and later challenged with a key stored on it, before its PCIe tunnel is created.</source>
        <translation>每个新设备都必须先获批准，之后还要用存储在设备上的密钥进行质询验证，才会建立 PCIe 隧道。</translation>
    </message>
    <message>
        <source>Approve the enclosure: boltctl enroll &lt;uuid&gt;; by hand as root: key=$(openssl rand -hex 32); echo $key &gt; /sys/bus/thunderbolt/devices/0-3/key; echo 1 &gt; /sys/bus/thunderbolt/devices/0-3/authorized (later plugs: write the key, then echo 2).</source>
        <translation>批准扩展坞：boltctl enroll &lt;uuid&gt;；以 root 身份手动操作：key=$(openssl rand -hex 32); echo $key &gt; /sys/bus/thunderbolt/devices/0-3/key; echo 1 &gt; /sys/bus/thunderbolt/devices/0-3/authorized（之后每次插入：先写入密钥，再 echo 2）。</translation>
    </message>
    <message>
        <source>The firmware tunnels only DisplayPort and USB; no PCIe tunnel is ever created, so no eGPU can work.</source>
        <translation>固件只通过隧道传输 DisplayPort 和 USB，从不建立 PCIe 隧道，因此无法使用任何外接显卡。</translation>
    </message>
    <message>
        <source>In the firmware (BIOS/UEFI) setup change the Thunderbolt security level from &apos;Display Port Only&apos; to one that allows PCIe (e.g. &apos;Unique ID&apos;/user), then approve the enclosure.</source>
        <translation>在固件（BIOS/UEFI）设置中将 Thunderbolt 安全级别从 &apos;Display Port Only&apos; 改为允许 PCIe 的级别（例如 &apos;Unique ID&apos;/user），然后批准扩展坞。</translation>
    </message>
    <message>
        <source>The firmware tunnels only the dock&apos;s USB controller and DisplayPort and removes all PCIe links below the dock, so no eGPU can work.</source>
        <translation>固件只通过隧道传输扩展坞的 USB 控制器和 DisplayPort，并移除扩展坞下游的所有 PCIe 链路，因此无法使用任何外接显卡。</translation>
    </message>
    <message>
        <source>In the firmware (BIOS/UEFI) setup choose a Thunderbolt security level that allows PCIe devices (e.g. &apos;Unique ID&apos;/user), then approve the enclosure.</source>
        <translation>在固件（BIOS/UEFI）设置中选择允许 PCIe 设备的 Thunderbolt 安全级别（例如 &apos;Unique ID&apos;/user），然后批准扩展坞。</translation>
    </message>
    <message>
        <source>PCIe tunnelling is disabled in the firmware (some USB4 systems offer this switch), so no eGPU can work.</source>
        <translation>固件中禁用了 PCIe 隧道（部分 USB4 系统提供此开关），因此无法使用任何外接显卡。</translation>
    </message>
    <message>
        <source>Enable PCIe tunnelling (often called &apos;USB4 PCIe tunneling&apos; or &apos;Thunderbolt PCIe&apos;) in the firmware setup, then approve the enclosure.</source>
        <translation>在固件设置中启用 PCIe 隧道（通常称为 &apos;USB4 PCIe tunneling&apos; 或 &apos;Thunderbolt PCIe&apos;），然后批准扩展坞。</translation>
    </message>
    <message>
        <source>NVIDIA on Linux does not handle Thunderbolt eGPU hot-unplug or reconnect well: after unplugging, a suspend or a reconnect the GPU can be &apos;fallen off the bus&apos; until a reboot, and unbinding the driver can lock up the machine. Shut down (or stop everything using the GPU and unload the driver) before unplugging; a fix for surprise removal was still an open pull request.</source>
        <translation>Linux 上的 NVIDIA 驱动对 Thunderbolt 外接显卡的热拔出或重新连接处理不佳：拔出、睡眠或重新连接后，GPU 可能出现 &apos;fallen off the bus&apos;，直到重启才能恢复；解绑驱动还可能导致机器死机。拔出前请先关机（或停止所有使用该 GPU 的程序并卸载驱动）；针对意外移除的修复当时仍是一个尚未合并的 pull request。</translation>
    </message>
    <message>
        <source>Linux creates the enclosure&apos;s PCIe tunnel only after the Thunderbolt device is authorised (boltctl, or 1 written to its &apos;authorized&apos; file). The USB4 software connection manager advertises security level &apos;user&apos;, so PCIe tunnelling is off by default until you approve the device; systems with iommu_dma_protection = 1 can auto-authorise with a udev rule. Before unplugging, stop the display manager, unload the driver and remove the eGPU&apos;s PCI device - unplugging without this can hang the system.</source>
        <translation>Linux 只有在 Thunderbolt 设备获得授权后（通过 boltctl，或向其 &apos;authorized&apos; 文件写入 1）才会建立扩展坞的 PCIe 隧道。USB4 软件连接管理器报告的安全级别为 &apos;user&apos;，因此在您批准设备之前，PCIe 隧道默认处于关闭状态；iommu_dma_protection = 1 的系统可以通过 udev 规则自动授权。拔出前，请停止显示管理器、卸载驱动并移除外接显卡的 PCI 设备——不这样做就拔出可能导致系统卡死。</translation>
    </message>
    <message>
        <source>ROCm (PyTorch&apos;s AMD backend) uses PCIe atomic operations; the CPU root port must complete them and every bridge or switch in between must route them. A Thunderbolt/USB4 enclosure adds bridges, so check &apos;dmesg | grep kfd&apos; after connecting: &apos;skipped device ..., PCI rejects atomics&apos; means ROCm will not use the card there.</source>
        <translation>ROCm（PyTorch 的 AMD 后端）使用 PCIe 原子操作：CPU 根端口必须能完成这些操作，途中的每个桥或交换芯片都必须能转发它们。Thunderbolt/USB4 扩展坞会增加桥，因此连接后请检查 &apos;dmesg | grep kfd&apos;：若出现 &apos;skipped device ..., PCI rejects atomics&apos;，说明 ROCm 不会在此使用该显卡。</translation>
    </message>
    <message>
        <source>On Windows PCs with Kernel DMA Protection, the DMAGuard policy can block devices on external PCIe ports such as Thunderbolt whose drivers are not DMA-remapping compatible; blocked devices start only after a user signs in and unlocks the session. If the eGPU appears only after logging in, this is why.</source>
        <translation>在启用了内核 DMA 保护的 Windows PC 上，DMAGuard 策略可能会阻止外部 PCIe 接口（如 Thunderbolt）上驱动不兼容 DMA 重映射的设备；被阻止的设备只有在用户登录并解锁会话后才会启动。如果外接显卡只在登录后才出现，原因就在于此。</translation>
    </message>
    <message>
        <source>A Thunderbolt eGPU also needs the laptop&apos;s firmware to support external graphics (Thunderbolt firmware and UEFI that handle eGFX) and a driver that supports eGFX on that OS; a Thunderbolt port alone does not guarantee it. Some laptops&apos; Thunderbolt software even reports external GPUs as unsupported.</source>
        <translation>Thunderbolt 外接显卡还需要笔记本固件支持外接显卡（能处理 eGFX 的 Thunderbolt 固件和 UEFI），以及该操作系统上支持 eGFX 的驱动；仅有 Thunderbolt 接口并不能保证可用。有些笔记本的 Thunderbolt 软件甚至会将外接显卡报告为不受支持。</translation>
    </message>
</context>
<context>
    <name>EgpuForm</name>
    <message>
        <source>Looking for a Thunderbolt/USB4 controller…</source>
        <translation>正在查找 Thunderbolt/USB4 控制器…</translation>
    </message>
    <message>
        <source>Use detected</source>
        <translation>使用检测结果</translation>
    </message>
    <message>
        <source>Check the laptop as the probe read it: its port, security level and the link it trained at</source>
        <translation>按检测读取到的笔记本信息进行检查：接口、安全级别及链路实际协商的速率</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>The laptop&apos;s own charger: an enclosure that charges with less drains the battery under load</source>
        <translation>笔记本自带充电器的功率：扩展坞的供电功率若低于此值，高负载时会消耗电池电量</translation>
    </message>
    <message>
        <source>Detected</source>
        <translation>检测结果</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>接口</translation>
    </message>
    <message>
        <source>OS</source>
        <translation>操作系统</translation>
    </message>
    <message>
        <source>Charger</source>
        <translation>充电器</translation>
    </message>
    <message>
        <source>Enclosure</source>
        <translation>扩展坞</translation>
    </message>
    <message>
        <source>Card</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>Your laptop</source>
        <translation>您的笔记本</translation>
    </message>
    <message>
        <source>Enclosure and card</source>
        <translation>扩展坞和显卡</translation>
    </message>
    <message>
        <source>{price} on {date}: {basis}</source>
        <translation>{date} 的价格 {price}：{basis}</translation>
    </message>
    <message>
        <source>Not read: {error}</source>
        <translation>未能读取：{error}</translation>
    </message>
    <message>
        <source>Nothing: {reason}</source>
        <translation>未找到：{reason}</translation>
    </message>
    <message>
        <source>link {lanes} x {rate:g} Gb/s</source>
        <translation>链路 {lanes} x {rate:g} Gb/s</translation>
    </message>
    <message>
        <source>security &apos;{level}&apos;</source>
        <translation>安全级别“{level}”</translation>
    </message>
    <message>
        <source>enclosure {name}</source>
        <translation>扩展坞 {name}</translation>
    </message>
    <message>
        <source>A Thunderbolt/USB4 host</source>
        <translation>一台 Thunderbolt/USB4 主机</translation>
    </message>
    <message>
        <source>(in use)</source>
        <translation>（使用中）</translation>
    </message>
</context>
<context>
    <name>EgpuTab</name>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Copy as text</source>
        <translation>复制为文本</translation>
    </message>
    <message>
        <source>Text file…</source>
        <translation>文本文件…</translation>
    </message>
    <message>
        <source>JSON…</source>
        <translation>JSON…</translation>
    </message>
    <message>
        <source>Driver notes</source>
        <translation>驱动说明</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>Your workload</source>
        <translation>您的工作负载</translation>
    </message>
    <message>
        <source>The eGPU tables cannot be read</source>
        <translation>无法读取外接显卡数据表</translation>
    </message>
    <message>
        <source>Nothing to time: this port and enclosure do not work together, so no PCIe link crosses.</source>
        <translation>无法计时：此接口与该扩展坞无法配合使用，因此没有可用的 PCIe 链路。</translation>
    </message>
    <message>
        <source>Nothing to time: no measured copy rate for {link} yet.</source>
        <translation>无法计时：尚无 {link} 的实测拷贝速率。</translation>
    </message>
    <message>
        <source>No workload yet. Describe one in the Workload tab (model, task, batch, length) and its slowdown on this link shows here.</source>
        <translation>尚无工作负载。请在“工作负载”标签页中描述一个（模型、任务、批大小、序列长度），它在此链路上的降速情况将显示在这里。</translation>
    </message>
    <message>
        <source>Does not fit {card}: needs {peak}, {usable} usable. No step time or slowdown: the workload would not run on this card.</source>
        <translation>{card} 放不下：需要 {peak}，可用 {usable}。无单步时间或降速数据：该工作负载无法在此显卡上运行。</translation>
    </message>
    <message>
        <source>{workload} on {card}</source>
        <translation>{card} 上的 {workload}</translation>
    </message>
    <message>
        <source>Not estimated yet.</source>
        <translation>尚未估算。</translation>
    </message>
    <message>
        <source>{model}, batch {batch}</source>
        <translation>{model}，批大小 {batch}</translation>
    </message>
    <message>
        <source>NVIDIA GPUs: none seen ({why})</source>
        <translation>NVIDIA GPU：未发现（{why}）</translation>
    </message>
    <message>
        <source>NVIDIA GPUs: {names}</source>
        <translation>NVIDIA GPU：{names}</translation>
    </message>
    <message>
        <source>Tracing the model…</source>
        <translation>正在追踪模型…</translation>
    </message>
    <message>
        <source>Tracing: {what}</source>
        <translation>追踪中：{what}</translation>
    </message>
    <message>
        <source>Exported the eGPU check to {path}</source>
        <translation>已将外接显卡检查结果导出到 {path}</translation>
    </message>
    <message>
        <source>Copied the eGPU check as text</source>
        <translation>已将外接显卡检查结果复制为文本</translation>
    </message>
    <message>
        <source>Text (*.txt)</source>
        <translation>文本 (*.txt)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export the eGPU check</source>
        <translation>导出外接显卡检查结果</translation>
    </message>
    <message>
        <source>Not exported: {error}</source>
        <translation>未导出：{error}</translation>
    </message>
</context>
<context>
    <name>Fleet</name>
    <message>
        <source>not judged: too few nodes</source>
        <translation>未评判：节点太少</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>outlier</source>
        <translation>离群</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <source>CUDA version the driver supports</source>
        <translation>驱动支持的 CUDA 版本</translation>
    </message>
    <message>
        <source>PyTorch build</source>
        <translation>PyTorch 构建</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>OS kernel</source>
        <translation>系统内核</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>{count} {state}</source>
        <translation>{count} 个{state}</translation>
    </message>
    <message>
        <source>not in the newest run: its last report is from {date}, not judged</source>
        <translation>不在最新一次运行中：最后一份报告来自 {date}，未评判</translation>
    </message>
    <message>
        <source>no GPU found, where {count} of {total} nodes have GPUs</source>
        <translation>未发现 GPU，而 {total} 个节点中有 {count} 个有 GPU</translation>
    </message>
    <message>
        <source>{found} GPUs, where {count} of {total} nodes with {model} have {usual}</source>
        <translation>{found} 块 GPU，而 {total} 个 {model} 节点中有 {count} 个为 {usual} 块</translation>
    </message>
    <message>
        <source>not in its report</source>
        <translation>报告中没有</translation>
    </message>
    <message>
        <source>{metric}: no figure here ({why}), where {count} of {total} nodes measured it</source>
        <translation>{metric}：此节点无数值（{why}），而 {total} 个节点中有 {count} 个测得</translation>
    </message>
    <message>
        <source>the all-reduce across the nodes failed: {why}</source>
        <translation>跨节点的 All-reduce 失败：{why}</translation>
    </message>
    <message>
        <source>all-reduce bus bandwidth {value} GB/s over {ranks} ranks, {share} below the baseline&apos;s {reference} GB/s over {before} ranks</source>
        <translation>All-reduce 总线带宽 {value} GB/s（{ranks} 个进程），比基线的 {reference} GB/s（{before} 个进程）低 {share}</translation>
    </message>
    <message>
        <source>no report from this node: {why}</source>
        <translation>该节点没有报告：{why}</translation>
    </message>
    <message>
        <source>{metric}: {value}, {share} below the fleet&apos;s median of {median}</source>
        <translation>{metric}：{value}，比集群中位数 {median} 低 {share}</translation>
    </message>
    <message>
        <source>{metric}: {value}, {share} above the fleet&apos;s median of {median}, unlike the rest</source>
        <translation>{metric}：{value}，比集群中位数 {median} 高 {share}，与其余节点不同</translation>
    </message>
    <message>
        <source>{metric}: {value}, {share} below the baseline&apos;s {reference}</source>
        <translation>{metric}：{value}，比基线的 {reference} 低 {share}</translation>
    </message>
    <message>
        <source>its own check failed: {check} ({subject}): {message}</source>
        <translation>自身检查未通过：{check}（{subject}）：{message}</translation>
    </message>
    <message>
        <source>{fact} {value}, where {count} of {total} nodes have {usual}</source>
        <translation>{fact}为 {value}，而 {total} 个节点中有 {count} 个为 {usual}</translation>
    </message>
    <message>
        <source>{metric}: {value}, {share} below its own run of {date} ({previous})</source>
        <translation>{metric}：{value}，比该节点 {date} 的运行（{previous}）低 {share}</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>离散度</translation>
    </message>
    <message>
        <source>Named beyond</source>
        <translation>超出即点名</translation>
    </message>
    <message>
        <source>Fleet report: {nodes} nodes</source>
        <translation>集群报告：{nodes} 个节点</translation>
    </message>
    <message>
        <source>Leave out of jobs (sbatch --exclude): {hosts}</source>
        <translation>作业中排除（sbatch --exclude）：{hosts}</translation>
    </message>
    <message>
        <source>Nodes named</source>
        <translation>被点名的节点</translation>
    </message>
    <message>
        <source>Nodes by metric</source>
        <translation>节点 × 指标</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>no GPU</source>
        <translation>无 GPU</translation>
    </message>
    <message>
        <source>{metric}, nodes with {group}</source>
        <translation>{metric}（{group} 节点）</translation>
    </message>
    <message>
        <source>Each cell is the node&apos;s figure; its colour is its distance from the fleet&apos;s median, red below and blue above, full at twice the distance that names a node. A node is named when it is further from the median than {threshold} or {factor} robust spreads (median absolute deviation x 1.4826), whichever is wider, with at least {least} nodes reporting the metric.</source>
        <translation>每个单元格是该节点的数值；颜色表示它与集群中位数的距离，低于中位数为红色，高于为蓝色，距离达到点名阈值的两倍时颜色最深。当节点与中位数的距离超过 {threshold} 或 {factor} 个稳健离散度（中位数绝对偏差 × 1.4826）中较大者，且至少有 {least} 个节点报告该指标时，该节点被点名。</translation>
    </message>
    <message>
        <source>All-reduce across {nodes} nodes ({backend}, {ranks} ranks): bus bandwidth {busbw} GB/s at {size} MiB</source>
        <translation>跨 {nodes} 个节点的 All-reduce（{backend}，{ranks} 个进程）：{size} MiB 时总线带宽 {busbw} GB/s</translation>
    </message>
    <message>
        <source>All-reduce across the nodes: not measured ({why})</source>
        <translation>跨节点 All-reduce：未测量（{why}）</translation>
    </message>
    <message>
        <source>Fleet of {nodes} nodes ({states}), {folder}</source>
        <translation>集群共 {nodes} 个节点（{states}），{folder}</translation>
    </message>
    <message>
        <source>Leave out of jobs: --exclude={hosts}</source>
        <translation>作业中排除：--exclude={hosts}</translation>
    </message>
</context>
<context>
    <name>FleetTab</name>
    <message>
        <source>Open folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新读取</translation>
    </message>
    <message>
        <source>A known-good node&apos;s probe report, or an earlier fleet report (JSON)</source>
        <translation>一个已知正常节点的探测报告，或之前的集群报告（JSON）</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>A TOML file of thresholds: threshold, spread_factor, [[metric]] match …</source>
        <translation>阈值的 TOML 文件：threshold、spread_factor、[[metric]] match …</translation>
    </message>
    <message>
        <source>Defaults</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Copy the exclude list</source>
        <translation>复制排除列表</translation>
    </message>
    <message>
        <source>HTML report…</source>
        <translation>HTML 报告…</translation>
    </message>
    <message>
        <source>JSON…</source>
        <translation>JSON…</translation>
    </message>
    <message>
        <source>Open a folder of node reports: what `gpuconfig fleet run --slurm` wrote, or `gpuconfig probe --json` files made on each node by any scheduler. Subfolders are earlier runs: each node&apos;s history.</source>
        <translation>打开一个节点报告文件夹：`gpuconfig fleet run --slurm` 写出的文件，或任意调度器在各节点上生成的 `gpuconfig probe --json` 文件。子文件夹是之前的运行：即各节点的历史。</translation>
    </message>
    <message>
        <source>Node report</source>
        <translation>节点报告</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <source>Reading {folder}…</source>
        <translation>正在读取 {folder}…</translation>
    </message>
    <message>
        <source>Read {count} node reports</source>
        <translation>已读取 {count} 份节点报告</translation>
    </message>
    <message>
        <source>{nodes} nodes: {states}</source>
        <translation>{nodes} 个节点：{states}</translation>
    </message>
    <message>
        <source>leave out: {hosts}</source>
        <translation>排除：{hosts}</translation>
    </message>
    <message>
        <source>{count} files left out (not reports)</source>
        <translation>{count} 个文件未计入（不是报告）</translation>
    </message>
    <message>
        <source>Nothing to say: within the fleet on every metric.</source>
        <translation>无异常：每项指标都在集群范围内。</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Baseline: {file}</source>
        <translation>基线：{file}</translation>
    </message>
    <message>
        <source>Baseline: none</source>
        <translation>基线：无</translation>
    </message>
    <message>
        <source>Rules: {file}</source>
        <translation>规则：{file}</translation>
    </message>
    <message>
        <source>Rules: defaults</source>
        <translation>规则：默认</translation>
    </message>
    <message>
        <source>Open a folder of node reports</source>
        <translation>打开节点报告文件夹</translation>
    </message>
    <message>
        <source>Choose a baseline</source>
        <translation>选择基线</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Choose a rules file</source>
        <translation>选择规则文件</translation>
    </message>
    <message>
        <source>TOML (*.toml)</source>
        <translation>TOML (*.toml)</translation>
    </message>
    <message>
        <source>Copied: {text}</source>
        <translation>已复制：{text}</translation>
    </message>
    <message>
        <source>No node to leave out</source>
        <translation>没有需要排除的节点</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <source>Export the fleet report</source>
        <translation>导出集群报告</translation>
    </message>
    <message>
        <source>Not saved: {why}</source>
        <translation>未保存：{why}</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>已保存 {path}</translation>
    </message>
</context>
<context>
    <name>Guide</name>
    <message>
        <source>{name} (compute capability {cc})</source>
        <translation>{name}（计算能力 {cc}）</translation>
    </message>
    <message>
        <source>CPU build</source>
        <translation>CPU 版本</translation>
    </message>
    <message>
        <source>{code} code (same major version)</source>
        <translation>{code} 代码（同主版本）</translation>
    </message>
    <message>
        <source>{code} PTX, compiled for this GPU when first used</source>
        <translation>{code} PTX，首次使用时为此 GPU 编译</translation>
    </message>
    <message>
        <source>{code} code</source>
        <translation>{code} 代码</translation>
    </message>
    <message>
        <source>no PyTorch {platform} wheel for {os} carries code for {gpus}; using the CPU build</source>
        <translation>{os} 上没有任何 PyTorch {platform} wheel 包包含 {gpus} 的代码；改用 CPU 版本</translation>
    </message>
    <message>
        <source>{build} would need driver {need} or newer; this machine has {driver}.</source>
        <translation>{build} 需要 {need} 或更新版本的驱动；本机驱动为 {driver}。</translation>
    </message>
    <message>
        <source>Driver {driver} runs no build for this GPU: the oldest driver any of them accepts is {need} ({build}).</source>
        <translation>驱动 {driver} 无法运行适用于此 GPU 的任何版本：其中要求最低的版本也需要驱动 {need}（{build}）。</translation>
    </message>
    <message>
        <source>no GPU: the CPU build</source>
        <translation>无 GPU：使用 CPU 版本</translation>
    </message>
    <message>
        <source>Apple silicon: PyPI&apos;s macOS wheel, which includes the MPS backend</source>
        <translation>Apple 芯片：使用 PyPI 的 macOS wheel 包，其中包含 MPS 后端</translation>
    </message>
    <message>
        <source>{a} and {b}</source>
        <translation>{a} 和 {b}</translation>
    </message>
    <message>
        <source>one PyTorch build serves one GPU vendor, not {vendors}; using the CPU build</source>
        <translation>一个 PyTorch 版本只支持一家 GPU 厂商，无法同时支持 {vendors}；改用 CPU 版本</translation>
    </message>
    <message>
        <source>PyTorch has no {vendor} GPU wheel for {os}; using the CPU build</source>
        <translation>PyTorch 没有适用于 {os} 的 {vendor} GPU wheel 包；改用 CPU 版本</translation>
    </message>
    <message>
        <source>{gpu} runs its {code}</source>
        <translation>{gpu} 运行其中的 {code}</translation>
    </message>
    <message>
        <source>{build} is the newest build with code for these GPUs ({runs}). {dropped}</source>
        <translation>{build} 是包含这些 GPU 代码的最新版本（{runs}）。{dropped}</translation>
    </message>
    <message>
        <source>{build} is the newest build with code for this GPU ({runs}). {dropped}</source>
        <translation>{build} 是包含此 GPU 代码的最新版本（{runs}）。{dropped}</translation>
    </message>
    <message>
        <source>No code for it in: {builds}.</source>
        <translation>以下版本不含其代码：{builds}。</translation>
    </message>
    <message>
        <source>The CUDA {cuda} wheels are the last PyTorch wheels with code for it.</source>
        <translation>CUDA {cuda} wheel 包是最后一批包含其代码的 PyTorch wheel 包。</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>仅 CPU</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Setup guide for {host}, probed {when} ({os})</source>
        <translation>{host} 的环境配置指南（检测于 {when}，{os}）</translation>
    </message>
    <message>
        <source>Setup guide for {host} ({os})</source>
        <translation>{host} 的环境配置指南（{os}）</translation>
    </message>
    <message>
        <source>probe report: devices[{index}] is not an object; skipped</source>
        <translation>检测报告：devices[{index}] 不是对象，已跳过</translation>
    </message>
    <message>
        <source>key &apos;compute_capability&apos; is {value}</source>
        <translation>键 &apos;compute_capability&apos; 的值为 {value}</translation>
    </message>
    <message>
        <source>{gpu} {name}: compute capability unknown ({why}); left out of the choice</source>
        <translation>{gpu} {name}：计算能力未知（{why}），未纳入版本选择</translation>
    </message>
    <message>
        <source>torch {version} is a CUDA {cuda} build, but no NVIDIA driver answered: {reason}</source>
        <translation>torch {version} 是 CUDA {cuda} 版本，但没有 NVIDIA 驱动响应：{reason}</translation>
    </message>
    <message>
        <source>install the NVIDIA driver (step &apos;Install the NVIDIA driver&apos;), or the CPU build if there is no GPU</source>
        <translation>安装 NVIDIA 驱动（见步骤“安装 NVIDIA 驱动”）；如果没有 GPU，则安装 CPU 版本</translation>
    </message>
    <message>
        <source>No NVIDIA GPU found by NVML: {reason}. This guide sets up the CPU build.</source>
        <translation>NVML 未找到 NVIDIA GPU：{reason}。本指南将配置 CPU 版本。</translation>
    </message>
    <message>
        <source>{driver} (it supports CUDA {cuda})</source>
        <translation>{driver}（支持 CUDA {cuda}）</translation>
    </message>
    <message>
        <source>torch {version} is built for CUDA {cuda}, which needs driver {floor} or newer; this machine&apos;s driver is {driver}.</source>
        <translation>torch {version} 基于 CUDA {cuda} 构建，需要 {floor} 或更新版本的驱动；本机驱动为 {driver}。</translation>
    </message>
    <message>
        <source>update the NVIDIA driver to {driver} or newer, or install a torch built for the CUDA the driver supports (the install step below does this for the current driver)</source>
        <translation>将 NVIDIA 驱动更新到 {driver} 或更新版本，或安装基于当前驱动所支持 CUDA 构建的 torch（下面的安装步骤会针对当前驱动这样做）</translation>
    </message>
    <message>
        <source>torch {version} is built for CUDA {cuda}; driver {driver} runs it only through CUDA minor-version compatibility (NVIDIA lists {wanted} for CUDA {cuda}).</source>
        <translation>torch {version} 基于 CUDA {cuda} 构建；驱动 {driver} 只能借助 CUDA 次版本兼容性运行它（NVIDIA 为 CUDA {cuda} 列出的驱动为 {wanted}）。</translation>
    </message>
    <message>
        <source>update the driver to {driver} or newer</source>
        <translation>将驱动更新到 {driver} 或更新版本</translation>
    </message>
    <message>
        <source>torch is not installed in the probed Python ({reason}).</source>
        <translation>检测所用的 Python 中未安装 torch（{reason}）。</translation>
    </message>
    <message>
        <source>torch was not checked: {reason}.</source>
        <translation>未检查 torch：{reason}。</translation>
    </message>
    <message>
        <source>torch could not be used in the probed Python: {reason}.</source>
        <translation>无法在检测所用的 Python 中使用 torch：{reason}。</translation>
    </message>
    <message>
        <source>torch is installed but does not work: {reason}</source>
        <translation>torch 已安装，但无法正常工作：{reason}</translation>
    </message>
    <message>
        <source>reinstall it: {command}</source>
        <translation>重新安装：{command}</translation>
    </message>
    <message>
        <source>torch {version} is a ROCm (HIP {hip}) build on a machine with NVIDIA GPUs.</source>
        <translation>torch {version} 是 ROCm（HIP {hip}）版本，而本机装的是 NVIDIA GPU。</translation>
    </message>
    <message>
        <source>torch {version} is a CPU-only build, but this machine has {n} NVIDIA GPU(s).</source>
        <translation>torch {version} 是仅 CPU 版本，但本机有 {n} 块 NVIDIA GPU。</translation>
    </message>
    <message>
        <source>install the CUDA build: {command}</source>
        <translation>安装 CUDA 版本：{command}</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>{gpu} {name} (compute capability {cc}, {sm}) is not in torch {version}&apos;s architecture list ({arch_list}): every kernel fails with &apos;no kernel image&apos;.</source>
        <translation>{gpu} {name}（计算能力 {cc}，{sm}）不在 torch {version} 的架构列表（{arch_list}）中：所有内核都会因 &apos;no kernel image&apos; 而失败。</translation>
    </message>
    <message>
        <source>install a build with code for it: {command}</source>
        <translation>安装包含其代码的版本：{command}</translation>
    </message>
    <message>
        <source>torch {version} (CUDA {cuda}) sees no GPU: torch.cuda.is_available() is False.</source>
        <translation>torch {version}（CUDA {cuda}）检测不到 GPU：torch.cuda.is_available() 为 False。</translation>
    </message>
    <message>
        <source>check nvidia-smi and the driver findings above; then reinstall: {command}</source>
        <translation>检查 nvidia-smi 和上面关于驱动的检查结果，然后重新安装：{command}</translation>
    </message>
    <message>
        <source>probe report: verdicts[{index}] is not an object; skipped</source>
        <translation>检测报告：verdicts[{index}] 不是对象，已跳过</translation>
    </message>
    <message>
        <source>Set up {gpus} for PyTorch on {os}</source>
        <translation>在 {os} 上为 PyTorch 配置 {gpus}</translation>
    </message>
    <message>
        <source>run on Linux (or WSL2 for NVIDIA), or build PyTorch from source for this GPU</source>
        <translation>在 Linux（NVIDIA 也可用 WSL2）上运行，或为此 GPU 从源码构建 PyTorch</translation>
    </message>
    <message>
        <source>use Linux for ROCm, or AMD&apos;s own PyTorch wheels for Windows (see AMD&apos;s ROCm for Windows documentation)</source>
        <translation>ROCm 请使用 Linux，或使用 AMD 自己提供的 Windows 版 PyTorch wheel 包（见 AMD 的 ROCm for Windows 文档）</translation>
    </message>
    <message>
        <source>{reason}.</source>
        <translation>{reason}。</translation>
    </message>
    <message>
        <source>Driver {driver} is older than {required}, the oldest driver that runs {build} (CUDA {cuda}) on {gpus}. {note}</source>
        <translation>驱动 {driver} 低于 {required}，即在 {gpus} 上运行 {build}（CUDA {cuda}）所需的最低驱动版本。{note}</translation>
    </message>
    <message>
        <source>update the NVIDIA driver to {driver} or newer (step &apos;Install the NVIDIA driver&apos;)</source>
        <translation>将 NVIDIA 驱动更新到 {driver} 或更新版本（见步骤“安装 NVIDIA 驱动”）</translation>
    </message>
    <message>
        <source>Driver {driver} runs {build} only through CUDA minor-version compatibility: NVIDIA lists {wanted} for CUDA {cuda}. Features that need the newer driver (PTX compiled at run time among them) fail.</source>
        <translation>驱动 {driver} 只能借助 CUDA 次版本兼容性运行 {build}：NVIDIA 为 CUDA {cuda} 列出的驱动为 {wanted}。需要更新驱动的功能（包括运行时编译 PTX）将会失败。</translation>
    </message>
    <message>
        <source>a newer driver lets you install the newer build</source>
        <translation>更新驱动后即可安装更新的版本</translation>
    </message>
    <message>
        <source>Newer PyTorch builds dropped this GPU. {lost}</source>
        <translation>较新的 PyTorch 版本已不再支持此 GPU。{lost}</translation>
    </message>
    <message>
        <source>keep the pinned install command ({packages} from {index}); a plain `pip install -U torch` moves to a build without code for this GPU</source>
        <translation>请保留固定版本的安装命令（从 {index} 安装 {packages}）；直接运行 `pip install -U torch` 会换成不含此 GPU 代码的版本</translation>
    </message>
    <message>
        <source>These {count} GPUs have no peer-to-peer path; NCCL may hang or corrupt results without being told.</source>
        <translation>这 {count} 块 GPU 之间没有点对点通路；NCCL 可能挂起或产生错误结果，且不会给出任何提示。</translation>
    </message>
    <message>
        <source>export NCCL_P2P_DISABLE=1 for every rank (set in &apos;Set the environment variables&apos;)</source>
        <translation>为每个 rank 执行 export NCCL_P2P_DISABLE=1（在步骤“设置环境变量”中设置）</translation>
    </message>
    <message>
        <source>Peer-to-peer support between these {count} GPUs is not known.</source>
        <translation>这 {count} 块 GPU 之间是否支持点对点通信尚不清楚。</translation>
    </message>
    <message>
        <source>run nvidia-smi topo -p2p r</source>
        <translation>运行 nvidia-smi topo -p2p r</translation>
    </message>
    <message>
        <source>MPS needs Apple silicon and a recent macOS (PyTorch RELEASE.md, operating systems table); an operation MPS lacks raises an error unless PYTORCH_ENABLE_MPS_FALLBACK=1 sends it to the CPU.</source>
        <translation>MPS 需要 Apple 芯片和较新的 macOS（见 PyTorch RELEASE.md 中的操作系统表）；MPS 不支持的操作会报错，除非设置 PYTORCH_ENABLE_MPS_FALLBACK=1 将其交给 CPU 执行。</translation>
    </message>
    <message>
        <source>NVIDIA and AMD GPUs in one machine: one PyTorch build serves one vendor.</source>
        <translation>同一台机器中有 NVIDIA 和 AMD GPU：一个 PyTorch 版本只支持一家厂商。</translation>
    </message>
    <message>
        <source>set up one vendor&apos;s GPUs per Python environment</source>
        <translation>每个 Python 环境只配置一家厂商的 GPU</translation>
    </message>
    <message>
        <source>About {build}: {note}</source>
        <translation>关于 {build}：{note}</translation>
    </message>
    <message>
        <source>{gfx} is not in gpu_architectures.toml: AMD&apos;s support for it is not known here.</source>
        <translation>{gfx} 不在 gpu_architectures.toml 中：此处无法确定 AMD 对它的支持情况。</translation>
    </message>
    <message>
        <source>{gfx} is not in PyTorch&apos;s ROCm wheels; HSA_OVERRIDE_GFX_VERSION={override} makes it run the code of its family&apos;s supported chip, unsupported by AMD.</source>
        <translation>{gfx} 不在 PyTorch 的 ROCm wheel 包中；设置 HSA_OVERRIDE_GFX_VERSION={override} 可让它运行同系列受支持芯片的代码，但 AMD 不提供支持。</translation>
    </message>
    <message>
        <source>export HSA_OVERRIDE_GFX_VERSION={override} before starting Python, and install the newest ROCm wheel</source>
        <translation>启动 Python 前执行 export HSA_OVERRIDE_GFX_VERSION={override}，并安装最新的 ROCm wheel 包</translation>
    </message>
    <message>
        <source>Ubuntu 22.04 LTS</source>
        <translation>Ubuntu 22.04 LTS</translation>
    </message>
    <message>
        <source>Ubuntu 24.04 LTS</source>
        <translation>Ubuntu 24.04 LTS</translation>
    </message>
    <message>
        <source>Debian 12 (bookworm)</source>
        <translation>Debian 12 (bookworm)</translation>
    </message>
    <message>
        <source>Windows 11</source>
        <translation>Windows 11</translation>
    </message>
    <message>
        <source>Ubuntu on WSL2 (Windows 11)</source>
        <translation>WSL2 上的 Ubuntu（Windows 11）</translation>
    </message>
    <message>
        <source>macOS on Apple silicon</source>
        <translation>Apple 芯片上的 macOS</translation>
    </message>
    <message>
        <source>fail</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>info</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>GPUs: {gpus}</source>
        <translation>GPU：{gpus}</translation>
    </message>
    <message>
        <source>OS: {os}</source>
        <translation>操作系统：{os}</translation>
    </message>
    <message>
        <source>PyTorch: {build} from {index}</source>
        <translation>PyTorch：{build}，来自 {index}</translation>
    </message>
    <message>
        <source>NVIDIA driver: {wanted} or newer (runs from {oldest})</source>
        <translation>NVIDIA 驱动：{wanted} 或更新版本（最低可用 {oldest}）</translation>
    </message>
    <message>
        <source>Why this build: {why}</source>
        <translation>为何选择此版本：{why}</translation>
    </message>
    <message>
        <source>Expected: {expect}</source>
        <translation>预期：{expect}</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>Fix: {fix}.</source>
        <translation>解决：{fix}。</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>变量</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Environment variables</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>Troubleshooting</source>
        <translation>故障排除</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>{source}, read {date}</source>
        <translation>{source}，读取于 {date}</translation>
    </message>
    <message>
        <source>Fix:</source>
        <translation>解决：</translation>
    </message>
    <message>
        <source>number GPUs by PCI bus, as nvidia-smi does (CUDA&apos;s default puts the fastest first)</source>
        <translation>按 PCI 总线顺序为 GPU 编号，与 nvidia-smi 一致（CUDA 默认把最快的 GPU 排在最前）</translation>
    </message>
    <message>
        <source>which GPUs a process may use; give each job its own</source>
        <translation>进程可使用哪些 GPU；为每个作业分配各自的 GPU</translation>
    </message>
    <message>
        <source>lets the caching allocator grow segments instead of fragmenting: fewer out-of-memory errors with free memory left</source>
        <translation>让缓存分配器扩展内存段而不是产生碎片：减少仍有空闲显存时出现的显存不足错误</translation>
    </message>
    <message>
        <source>these cards have no peer-to-peer path; without it NCCL can hang or return wrong results</source>
        <translation>这些显卡之间没有点对点通路；不设置此项，NCCL 可能挂起或返回错误结果</translation>
    </message>
    <message>
        <source>which AMD GPUs a process may use</source>
        <translation>进程可使用哪些 AMD GPU</translation>
    </message>
    <message>
        <source>ROCm builds read the allocator settings from this name (PyTorch HIP semantics notes)</source>
        <translation>ROCm 版本从这个变量名读取分配器设置（见 PyTorch HIP 语义说明）</translation>
    </message>
    <message>
        <source>{variables}. To keep them, add these lines to ~/.bashrc.</source>
        <translation>{variables}。若要永久保留，请将这些行添加到 ~/.bashrc。</translation>
    </message>
    <message>
        <source>{variables}. To keep them, use setx NAME value, or the System Properties dialog.</source>
        <translation>{variables}。若要永久保留，请使用 setx NAME value，或在“系统属性”对话框中设置。</translation>
    </message>
    <message>
        <source>Set the environment variables</source>
        <translation>设置环境变量</translation>
    </message>
    <message>
        <source>&quot;no kernel image is available for execution on the device&quot; or &quot;sm_XY is not compatible&quot;</source>
        <translation>&quot;no kernel image is available for execution on the device&quot; 或 &quot;sm_XY is not compatible&quot;</translation>
    </message>
    <message>
        <source>The installed torch has no code for the GPU. {build} carries {arch}; a different torch in the environment (pip resolved another index, or a dependency pulled one in) is the usual cause.</source>
        <translation>已安装的 torch 不含此 GPU 的代码。{build} 包含 {arch}；通常是环境中混入了另一个 torch（pip 解析到了其他索引，或某个依赖带入了一个）。</translation>
    </message>
    <message>
        <source>{torch}.x+{variant} and {arch}</source>
        <translation>{torch}.x+{variant} 和 {arch}</translation>
    </message>
    <message>
        <source>{build} needs driver {required} or newer to run at all and {wanted} for every feature; update the driver, or install a build for an older CUDA.</source>
        <translation>{build} 至少需要 {required} 或更新版本的驱动才能运行，要使用全部功能则需要 {wanted}；请更新驱动，或安装基于较旧 CUDA 的版本。</translation>
    </message>
    <message>
        <source>{driver} or newer</source>
        <translation>{driver} 或更新版本</translation>
    </message>
    <message>
        <source>Train in bfloat16 with torch.autocast(device_type=&apos;cuda&apos;, dtype=torch.bfloat16): half the activation memory.</source>
        <translation>使用 bfloat16 训练：torch.autocast(device_type=&apos;cuda&apos;, dtype=torch.bfloat16)，激活值显存减半。</translation>
    </message>
    <message>
        <source>This GPU has no bfloat16 tensor cores: use torch.autocast with float16 and torch.amp.GradScaler.</source>
        <translation>此 GPU 没有支持 bfloat16 的 Tensor Core：请配合 float16 使用 torch.autocast 和 torch.amp.GradScaler。</translation>
    </message>
    <message>
        <source>This GPU has no tensor cores: float16 saves memory but is not faster here.</source>
        <translation>此 GPU 没有 Tensor Core：float16 能节省显存，但在这里不会更快。</translation>
    </message>
    <message>
        <source>Lower precision (bfloat16 where supported) halves activation memory.</source>
        <translation>降低精度（在支持的情况下使用 bfloat16）可使激活值显存减半。</translation>
    </message>
    <message>
        <source>Out of memory</source>
        <translation>显存不足</translation>
    </message>
    <message>
        <source>First see what else holds GPU memory, then shrink the step: a smaller batch with gradient accumulation, or activation checkpointing (torch.utils.checkpoint). {precision} If the error reports much memory &apos;reserved by PyTorch but unallocated&apos;, it is fragmentation: set {setting}=expandable_segments:True.</source>
        <translation>先查看还有什么占用了显存，然后缩小单步规模：使用更小的批大小并配合梯度累积，或使用激活检查点（torch.utils.checkpoint）。{precision} 如果错误信息显示大量显存 &apos;reserved by PyTorch but unallocated&apos;，说明存在碎片：请设置 {setting}=expandable_segments:True。</translation>
    </message>
    <message>
        <source>free memory close to total before your job starts</source>
        <translation>作业启动前空闲显存接近总量</translation>
    </message>
    <message>
        <source>A multi-GPU job that hangs at the first collective is usually NCCL&apos;s transport. Run with NCCL_DEBUG=INFO to see the path it picks.</source>
        <translation>多 GPU 作业卡在第一次集合通信时，通常是 NCCL 的传输方式所致。设置 NCCL_DEBUG=INFO 运行，即可查看它选择的通路。</translation>
    </message>
    <message>
        <source>These cards have no peer-to-peer path: set NCCL_P2P_DISABLE=1 for every rank.</source>
        <translation>这些显卡之间没有点对点通路：请为每个 rank 设置 NCCL_P2P_DISABLE=1。</translation>
    </message>
    <message>
        <source>If nvidia-smi topo -p2p r shows no peer-to-peer path, set NCCL_P2P_DISABLE=1.</source>
        <translation>如果 nvidia-smi topo -p2p r 显示没有点对点通路，请设置 NCCL_P2P_DISABLE=1。</translation>
    </message>
    <message>
        <source>With the IOMMU or PCIe ACS enabled, peer-to-peer traffic can stall: check the BIOS and kernel settings.</source>
        <translation>启用 IOMMU 或 PCIe ACS 时，点对点传输可能停滞：请检查 BIOS 和内核设置。</translation>
    </message>
    <message>
        <source>Under WSL2, NCCL multi-GPU support is limited (NVIDIA&apos;s CUDA on WSL guide).</source>
        <translation>在 WSL2 下，NCCL 的多 GPU 支持有限（见 NVIDIA 的 CUDA on WSL 指南）。</translation>
    </message>
    <message>
        <source>Multi-GPU training stalls or hangs</source>
        <translation>多 GPU 训练停滞或挂起</translation>
    </message>
    <message>
        <source>OK or a listed link type between every pair of GPUs</source>
        <translation>每对 GPU 之间显示 OK 或列出的某种链路类型</translation>
    </message>
    <message>
        <source>Check the model and inputs are on the GPU (next(model.parameters()).device), use torch.inference_mode(), and batch requests.</source>
        <translation>检查模型和输入是否在 GPU 上（next(model.parameters()).device），使用 torch.inference_mode()，并批量处理请求。</translation>
    </message>
    <message>
        <source>This GPU has TF32 and bfloat16 tensor cores: torch.set_float32_matmul_precision(&apos;high&apos;) and bfloat16 weights.</source>
        <translation>此 GPU 有支持 TF32 和 bfloat16 的 Tensor Core：使用 torch.set_float32_matmul_precision(&apos;high&apos;) 和 bfloat16 权重。</translation>
    </message>
    <message>
        <source>Use float16 (model.half() or autocast) to reach the tensor cores.</source>
        <translation>使用 float16（model.half() 或 autocast）以利用 Tensor Core。</translation>
    </message>
    <message>
        <source>This build reaches the GPU through PTX, compiled when first used: the first run is slow, later runs are not (the driver caches it).</source>
        <translation>此版本通过 PTX 使用此 GPU，PTX 在首次使用时编译：首次运行较慢，之后不会（驱动会缓存编译结果）。</translation>
    </message>
    <message>
        <source>A PCIe link below its generation or width slows host-to-device copies: read it under load.</source>
        <translation>PCIe 链路低于其代数或宽度时，主机到设备的拷贝会变慢：请在负载下读取链路状态。</translation>
    </message>
    <message>
        <source>Slow inference</source>
        <translation>推理速度慢</translation>
    </message>
    <message>
        <source>the current link generation and width equal the maximum while a job runs</source>
        <translation>作业运行时，当前链路代数和宽度等于最大值</translation>
    </message>
    <message>
        <source>{build} brings its own CUDA {cuda} runtime, so only the driver is installed system-wide. NVIDIA lists driver {need} or newer for CUDA {cuda}; {floor} is the oldest that runs it at all (CUDA minor-version compatibility). A CUDA toolkit is needed only to compile extensions.</source>
        <translation>{build} 自带 CUDA {cuda} 运行时，因此系统中只需安装驱动。NVIDIA 为 CUDA {cuda} 列出的驱动为 {need} 或更新版本；{floor} 是能运行它的最低版本（CUDA 次版本兼容性）。只有编译扩展时才需要 CUDA 工具包。</translation>
    </message>
    <message>
        <source>The R{branch} branch is the last NVIDIA driver for {architectures}: install it, not a newer branch.</source>
        <translation>R{branch} 分支是支持 {architectures} 的最后一个 NVIDIA 驱动分支：请安装它，不要安装更新的分支。</translation>
    </message>
    <message>
        <source>This GPU is supported only with NVIDIA&apos;s open kernel modules (the -open packages).</source>
        <translation>此 GPU 只能使用 NVIDIA 的开源内核模块（-open 软件包）。</translation>
    </message>
    <message>
        <source>Driver Version: {need} or newer</source>
        <translation>Driver Version：{need} 或更新版本</translation>
    </message>
    <message>
        <source>Under WSL2 the Windows driver serves Linux too: install it on Windows (nvidia.com/drivers) and never install a Linux NVIDIA driver inside WSL; libcuda.so is mapped into WSL for you.</source>
        <translation>在 WSL2 下，Windows 驱动同时为 Linux 提供服务：请在 Windows 上安装驱动（nvidia.com/drivers），切勿在 WSL 内安装 Linux 版 NVIDIA 驱动；libcuda.so 会自动映射到 WSL 中。</translation>
    </message>
    <message>
        <source>Install the NVIDIA driver on Windows, not in WSL</source>
        <translation>在 Windows 上安装 NVIDIA 驱动，而不是在 WSL 中</translation>
    </message>
    <message>
        <source>Driver Version: {need} or newer, and your GPU listed</source>
        <translation>Driver Version：{need} 或更新版本，并列出您的 GPU</translation>
    </message>
    <message>
        <source>Download it from nvidia.com/drivers (Game Ready or Studio for GeForce, the data-center driver for others) and reboot.</source>
        <translation>从 nvidia.com/drivers 下载驱动（GeForce 选择 Game Ready 或 Studio 驱动，其他显卡选择数据中心驱动），然后重启。</translation>
    </message>
    <message>
        <source>Install the NVIDIA driver</source>
        <translation>安装 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>or a newer branch from the list</source>
        <translation>或从列表中选择更新的分支</translation>
    </message>
    <message>
        <source>Pick the {branch} branch.</source>
        <translation>选择 {branch} 分支。</translation>
    </message>
    <message>
        <source>Pick the {branch} branch or newer from Ubuntu&apos;s list.</source>
        <translation>从 Ubuntu 的列表中选择 {branch} 或更新的分支。</translation>
    </message>
    <message>
        <source>needs &apos;contrib non-free non-free-firmware&apos; in sources</source>
        <translation>需要在软件源中启用 &apos;contrib non-free non-free-firmware&apos;</translation>
    </message>
    <message>
        <source>Debian&apos;s own package is fine if apt-cache shows {need} or newer; otherwise install the driver from NVIDIA&apos;s CUDA repository for debian12 (cuda-keyring package, then the cuda-drivers or nvidia-open package).</source>
        <translation>如果 apt-cache 显示的版本为 {need} 或更新，使用 Debian 自带的软件包即可；否则请从 NVIDIA 的 debian12 CUDA 软件源安装驱动（先安装 cuda-keyring 软件包，再安装 cuda-drivers 或 nvidia-open 软件包）。</translation>
    </message>
    <message>
        <source>Give your user the AMD GPU</source>
        <translation>为您的用户授予 AMD GPU 访问权限</translation>
    </message>
    <message>
        <source>PyTorch&apos;s ROCm wheel bundles the ROCm libraries; the system needs the amdgpu kernel driver (in the Linux kernel, or AMD&apos;s amdgpu-dkms from amdgpu-install) and your user in the render and video groups.</source>
        <translation>PyTorch 的 ROCm wheel 包自带 ROCm 库；系统需要 amdgpu 内核驱动（Linux 内核自带，或使用 amdgpu-install 安装 AMD 的 amdgpu-dkms），并需将您的用户加入 render 和 video 组。</translation>
    </message>
    <message>
        <source>then log out and in</source>
        <translation>然后注销并重新登录</translation>
    </message>
    <message>
        <source>/dev/kfd and /dev/dri/renderD128 exist and belong to the render group</source>
        <translation>/dev/kfd 和 /dev/dri/renderD128 存在且属于 render 组</translation>
    </message>
    <message>
        <source>torch {torch} has wheels for Python {low} to {high}; this guide uses {python}.</source>
        <translation>torch {torch} 提供 Python {low} 到 {high} 的 wheel 包；本指南使用 {python}。</translation>
    </message>
    <message>
        <source>Create a Python environment</source>
        <translation>创建 Python 环境</translation>
    </message>
    <message>
        <source>python --version prints Python {python}.x</source>
        <translation>python --version 输出 Python {python}.x</translation>
    </message>
    <message>
        <source>No {packages} release matches torch {torch}, so it is left out.</source>
        <translation>没有与 torch {torch} 匹配的 {packages} 版本，因此未安装。</translation>
    </message>
    <message>
        <source>{a} or {b}</source>
        <translation>{a} 或 {b}</translation>
    </message>
    <message>
        <source>Install PyTorch with pip</source>
        <translation>使用 pip 安装 PyTorch</translation>
    </message>
    <message>
        <source>Installs torch {torch} from PyPI, whose macOS wheel includes the MPS backend.</source>
        <translation>从 PyPI 安装 torch {torch}，其 macOS wheel 包包含 MPS 后端。</translation>
    </message>
    <message>
        <source>Installs {build} and its companion packages from one index, so pip cannot mix in a build for another CUDA or a CPU-only wheel.</source>
        <translation>从同一个索引安装 {build} 及其配套软件包，这样 pip 就不会混入适用于其他 CUDA 的版本或仅 CPU 的 wheel 包。</translation>
    </message>
    <message>
        <source>Or with uv</source>
        <translation>或使用 uv</translation>
    </message>
    <message>
        <source>The same packages through uv. uv&apos;s own --torch-backend=auto picks an index from the installed driver, not from the GPU&apos;s architecture, so the index is named here.</source>
        <translation>通过 uv 安装相同的软件包。uv 自带的 --torch-backend=auto 根据已安装的驱动而非 GPU 架构选择索引，因此这里明确指定索引。</translation>
    </message>
    <message>
        <source>Or in a conda environment</source>
        <translation>或在 conda 环境中安装</translation>
    </message>
    <message>
        <source>The pytorch channel on Anaconda stopped at torch 2.5 (pytorch#138506). Create the environment with conda and install the wheel with pip inside it, or use conda-forge&apos;s pytorch package and check its architecture list with the verification step.</source>
        <translation>Anaconda 上的 pytorch 频道已停止在 torch 2.5（pytorch#138506）。请用 conda 创建环境并在其中用 pip 安装 wheel 包，或使用 conda-forge 的 pytorch 软件包，并通过验证步骤检查其架构列表。</translation>
    </message>
    <message>
        <source>Check the install</source>
        <translation>检查安装</translation>
    </message>
    <message>
        <source>torch sees the Apple GPU through MPS and runs a matrix product on it.</source>
        <translation>torch 通过 MPS 识别 Apple GPU，并在其上运行一次矩阵乘法。</translation>
    </message>
    <message>
        <source>{torch}.x, then True; then torch.Size([2048, 2048]) mps:0</source>
        <translation>{torch}.x，然后是 True；然后是 torch.Size([2048, 2048]) mps:0</translation>
    </message>
    <message>
        <source>A CPU build: torch.version.cuda is None and the matrix product runs on the CPU.</source>
        <translation>CPU 版本：torch.version.cuda 为 None，矩阵乘法在 CPU 上运行。</translation>
    </message>
    <message>
        <source>{torch}.x+cpu (or {torch}.x), then None; then torch.Size([2048, 2048])</source>
        <translation>{torch}.x+cpu（或 {torch}.x），然后是 None；然后是 torch.Size([2048, 2048])</translation>
    </message>
    <message>
        <source>{version} (HIP prints a longer version that starts with it)</source>
        <translation>{version}（HIP 会输出以此开头的更长版本号）</translation>
    </message>
    <message>
        <source>Confirms the wheel, its runtime, that torch sees the GPU, that the wheel has code for it, and that a real matrix product runs. The GPU runs {how}.</source>
        <translation>确认 wheel 包及其运行时、torch 能识别 GPU、wheel 包包含该 GPU 的代码，并实际运行一次矩阵乘法。GPU 运行的是 {how}。</translation>
    </message>
    <message>
        <source>{torch}.x+{variant}, then {version}, then True; {capability}arch list {arch}; then torch.Size([4096, 4096]) cuda:0 True</source>
        <translation>{torch}.x+{variant}，然后是 {version}，然后是 True；{capability}架构列表 {arch}；然后是 torch.Size([4096, 4096]) cuda:0 True</translation>
    </message>
    <message>
        <source>capability {caps}; </source>
        <translation>计算能力 {caps}； </translation>
    </message>
</context>
<context>
    <name>GuideMirrors</name>
    <message>
        <source>pypi.org and download.pytorch.org are often slow from mainland China. {label} is the torch wheel PyPI itself serves here, so USTC&apos;s PyPI mirror ({help}) has it: make the mirror pip&apos;s default index and install without PyTorch&apos;s index (uv: the mirror as the default index, in the environment made above). conda: USTC caches conda-forge ({conda}).</source>
        <translation>在中国大陆访问 pypi.org 和 download.pytorch.org 往往较慢。{label} 正是 PyPI 在此平台上提供的 torch wheel 包，因此 USTC 的 PyPI 镜像（{help}）也有：把该镜像设为 pip 的默认索引，无需 PyTorch 的索引即可安装（uv：在上面创建的环境中把镜像设为默认索引）。conda：USTC 缓存了 conda-forge（{conda}）。</translation>
    </message>
    <message>
        <source>pypi.org and download.pytorch.org are often slow from mainland China. {label} is only on PyTorch&apos;s own index, which no mirror carries officially: torch comes from there, and everything else (NumPy, the CUDA libraries PyPI holds, ...) can come from USTC&apos;s PyPI mirror ({help}). conda: USTC caches conda-forge ({conda}).</source>
        <translation>在中国大陆访问 pypi.org 和 download.pytorch.org 往往较慢。{label} 只在 PyTorch 自己的索引上提供，没有镜像官方同步该索引：torch 从那里下载，其余的包（NumPy、PyPI 上的 CUDA 库等）可以从 USTC 的 PyPI 镜像（{help}）下载。conda：USTC 缓存了 conda-forge（{conda}）。</translation>
    </message>
    <message>
        <source>In mainland China: through a mirror</source>
        <translation>在中国大陆：通过镜像安装</translation>
    </message>
    <message>
        <source>pip prints Looking in indexes: {indexes}</source>
        <translation>pip 输出 Looking in indexes: {indexes}</translation>
    </message>
</context>
<context>
    <name>GuideSource</name>
    <message>
        <source>A GPU from the catalog</source>
        <translation>硬件目录中的 GPU</translation>
    </message>
    <message>
        <source>A build file</source>
        <translation>装机方案文件</translation>
    </message>
    <message>
        <source>A probe report</source>
        <translation>检测报告</translation>
    </message>
    <message>
        <source>This machine&apos;s last probe</source>
        <translation>本机最近一次检测</translation>
    </message>
    <message>
        <source>Type part of a name to search the catalog&apos;s GPUs</source>
        <translation>输入部分名称以搜索硬件目录中的 GPU</translation>
    </message>
    <message>
        <source>How many of this GPU the machine has</source>
        <translation>本机装有此 GPU 的数量</translation>
    </message>
    <message>
        <source>No build file open</source>
        <translation>未打开装机方案文件</translation>
    </message>
    <message>
        <source>Open build file…</source>
        <translation>打开装机方案文件…</translation>
    </message>
    <message>
        <source>No probe report open</source>
        <translation>未打开检测报告</translation>
    </message>
    <message>
        <source>Open probe report…</source>
        <translation>打开检测报告…</translation>
    </message>
    <message>
        <source>A probe run&apos;s JSON: gpuconfig probe --json --output FILE, or an export from the Probe tab</source>
        <translation>一次检测运行的 JSON：gpuconfig probe --json --output FILE，或从“检测”标签页导出的文件</translation>
    </message>
    <message>
        <source>The NVIDIA driver already installed (nvidia-smi shows it): the guide picks a PyTorch build it runs</source>
        <translation>已安装的 NVIDIA 驱动（nvidia-smi 可查看）：指南会选择能在该驱动上运行的 PyTorch 版本</translation>
    </message>
    <message>
        <source>e.g. 550.54.15</source>
        <translation>例如 550.54.15</translation>
    </message>
    <message>
        <source>Mainland China mirrors</source>
        <translation>中国大陆镜像</translation>
    </message>
    <message>
        <source>Add the install through USTC&apos;s PyPI mirror, for where pypi.org and download.pytorch.org are slow</source>
        <translation>加入通过中国科学技术大学 (USTC) PyPI 镜像安装的步骤，适用于访问 pypi.org 和 download.pytorch.org 较慢的地方</translation>
    </message>
    <message>
        <source>Installed NVIDIA driver</source>
        <translation>已安装的 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>Set up</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>For</source>
        <translation>适用于</translation>
    </message>
    <message>
        <source>The probe report&apos;s own driver is used</source>
        <translation>使用检测报告中的驱动版本</translation>
    </message>
    <message>
        <source>not a version like 550.54.15</source>
        <translation>不是形如 550.54.15 的版本号</translation>
    </message>
</context>
<context>
    <name>GuideTab</name>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Markdown…</source>
        <translation>Markdown…</translation>
    </message>
    <message>
        <source>HTML page…</source>
        <translation>HTML 页面…</translation>
    </message>
    <message>
        <source>JSON…</source>
        <translation>JSON…</translation>
    </message>
    <message>
        <source>PDF…</source>
        <translation>PDF…</translation>
    </message>
    <message>
        <source>Copied: {command}</source>
        <translation>已复制：{command}</translation>
    </message>
    <message>
        <source>{path}: not a readable probe report ({error})</source>
        <translation>{path}：不是可读取的检测报告（{error}）</translation>
    </message>
    <message>
        <source>{path}: not a probe report (expected a JSON object)</source>
        <translation>{path}：不是检测报告（应为 JSON 对象）</translation>
    </message>
    <message>
        <source>run of {when} on {host}</source>
        <translation>{host} 上 {when} 的运行</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>仅 CPU</translation>
    </message>
    <message>
        <source>Open a build file (File ▸ Export in the Build tab writes one) to see its setup guide.</source>
        <translation>打开装机方案文件（可在“装机方案”标签页中通过“文件 ▸ 导出”生成），即可查看其环境配置指南。</translation>
    </message>
    <message>
        <source>Open a probe report to see the setup guide for the machine it describes, with what the probe found wrong first. Write one with: gpuconfig probe --json --output report.json</source>
        <translation>打开一份检测报告，即可查看该报告所描述机器的环境配置指南，检测发现的问题排在最前。生成报告的命令：gpuconfig probe --json --output report.json</translation>
    </message>
    <message>
        <source>Exported the guide to {path}</source>
        <translation>指南已导出到 {path}</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export the setup guide</source>
        <translation>导出环境配置指南</translation>
    </message>
    <message>
        <source>Not exported: {error}</source>
        <translation>未导出：{error}</translation>
    </message>
    <message>
        <source>Open a build</source>
        <translation>打开装机方案</translation>
    </message>
    <message>
        <source>Build files (*.json)</source>
        <translation>装机方案文件 (*.json)</translation>
    </message>
    <message>
        <source>Open a probe report</source>
        <translation>打开检测报告</translation>
    </message>
    <message>
        <source>Probe reports (*.json)</source>
        <translation>检测报告 (*.json)</translation>
    </message>
</context>
<context>
    <name>GuideView</name>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Jump to a section</source>
        <translation>跳转到章节</translation>
    </message>
    <message>
        <source>On this page</source>
        <translation>本页内容</translation>
    </message>
    <message>
        <source>Before you start</source>
        <translation>开始之前</translation>
    </message>
    <message>
        <source>Fix:</source>
        <translation>解决：</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Environment variables</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>If something goes wrong</source>
        <translation>如果出现问题</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>read {date}</source>
        <translation>读取于 {date}</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <source>NVIDIA driver</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <source>{wanted} or newer (runs from {oldest})</source>
        <translation>{wanted} 或更新版本（最低可用 {oldest}）</translation>
    </message>
    <message>
        <source>Why this build</source>
        <translation>为何选择此版本</translation>
    </message>
    <message>
        <source>Expect:</source>
        <translation>预期：</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy this command to the clipboard</source>
        <translation>将此命令复制到剪贴板</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
<context>
    <name>HeatmapModel</name>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>{metric}: median {median} {unit}, spread ±{spread} %, a node is named beyond ±{threshold} %</source>
        <translation>{metric}：中位数 {median} {unit}，离散度 ±{spread} %，超出 ±{threshold} % 的节点被点名</translation>
    </message>
    <message>
        <source>{node}, {metric}: {value} {unit}, {change} from the fleet&apos;s median</source>
        <translation>{node}，{metric}：{value} {unit}，与集群中位数相差 {change}</translation>
    </message>
</context>
<context>
    <name>HistoryPanel</name>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Suite</source>
        <translation>测试套件</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Verdicts</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Compare two</source>
        <translation>比较两次</translation>
    </message>
    <message>
        <source>Select two runs to see their results side by side</source>
        <translation>选择两次运行，并排查看其结果</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>No runs yet: each finished run is saved here.</source>
        <translation>还没有运行记录：每次完成的运行都会保存在这里。</translation>
    </message>
    <message>
        <source>{n} pass</source>
        <translation>{n} 项通过</translation>
    </message>
    <message>
        <source>{n} warn</source>
        <translation>{n} 项警告</translation>
    </message>
    <message>
        <source>{n} fail</source>
        <translation>{n} 项失败</translation>
    </message>
    <message>
        <source>nothing judged (no reference figures)</source>
        <translation>未作判定（无参考数据）</translation>
    </message>
    <message>
        <source>First: {a} on {host_a}. Second: {b} on {host_b}.</source>
        <translation>第一次：{host_a} 上的 {a}。第二次：{host_b} 上的 {b}。</translation>
    </message>
</context>
<context>
    <name>InventoryTree</name>
    <message>
        <source>Part</source>
        <translation>配件</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Disks</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Thunderbolt / USB4</source>
        <translation>Thunderbolt / USB4</translation>
    </message>
    <message>
        <source>Python environments</source>
        <translation>Python 环境</translation>
    </message>
    <message>
        <source>GPU {index}</source>
        <translation>GPU {index}</translation>
    </message>
    <message>
        <source>none found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>unavailable — {why}</source>
        <translation>不可用——{why}</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>LinkPanel</name>
    <message>
        <source>eGPU, {link}</source>
        <translation>外接显卡，{link}</translation>
    </message>
    <message>
        <source>Desktop, {slot}</source>
        <translation>台式机，{slot}</translation>
    </message>
    <message>
        <source>Measured here</source>
        <translation>本机实测</translation>
    </message>
    <message>
        <source>Copies to the card run at about {egpu:g} GB/s over {link}: {share:.0%} of the same card in a desktop {slot} slot ({desktop:.3g} GB/s).</source>
        <translation>通过 {link} 向显卡复制数据的速度约为 {egpu:g} GB/s，是同一显卡在台式机 {slot} 插槽中（{desktop:.3g} GB/s）的 {share:.0%}。</translation>
    </message>
    <message>
        <source>A measurement here is good at {gbs:g} GB/s or more.</source>
        <translation>本机实测达到 {gbs:g} GB/s 或以上即为正常。</translation>
    </message>
    <message>
        <source>Sources: {links}</source>
        <translation>来源：{links}</translation>
    </message>
    <message>
        <source>Desktop: {source}</source>
        <translation>台式机：{source}</translation>
    </message>
</context>
<context>
    <name>LivePlot</name>
    <message>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>used</source>
        <translation>已用</translation>
    </message>
    <message>
        <source>disk read</source>
        <translation>磁盘读取</translation>
    </message>
    <message>
        <source>disk write</source>
        <translation>磁盘写入</translation>
    </message>
    <message>
        <source>network in</source>
        <translation>网络接收</translation>
    </message>
    <message>
        <source>network out</source>
        <translation>网络发送</translation>
    </message>
    <message>
        <source>SM</source>
        <translation>SM</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>in</source>
        <translation>入</translation>
    </message>
    <message>
        <source>out</source>
        <translation>出</translation>
    </message>
    <message>
        <source>No GPU graphs: {why}.</source>
        <translation>无 GPU 图表：{why}。</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Disk and network</source>
        <translation>磁盘与网络</translation>
    </message>
    <message>
        <source>GPU utilisation</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>GPU memory used</source>
        <translation>GPU 显存占用</translation>
    </message>
    <message>
        <source>GPU temperature</source>
        <translation>GPU 温度</translation>
    </message>
    <message>
        <source>GPU power</source>
        <translation>GPU 功耗</translation>
    </message>
    <message>
        <source>GPU clocks</source>
        <translation>GPU 频率</translation>
    </message>
    <message>
        <source>PCIe traffic</source>
        <translation>PCIe 流量</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>each core</source>
        <translation>各核心</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Catalog</source>
        <translation>硬件目录</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Build</source>
        <translation>装机方案</translation>
    </message>
    <message>
        <source>Recommend complete machines for a workload and a budget — GPUs, CPU, board, memory, storage, power supply and case — check every compatibility and power rule, compare buying with renting, and export the build list.</source>
        <translation>根据工作负载和预算推荐整机（GPU、CPU、主板、内存、存储、电源和机箱），检查每一条兼容性与功耗规则，比较购买与租用，并导出配置清单。</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>检测</translation>
    </message>
    <message>
        <source>Inventory this machine, graph GPU and CPU use live, run PyTorch benchmarks (matmul, memory bandwidth, host-device copies, a real training step) and judge each result against the part&apos;s specification.</source>
        <translation>清点本机硬件，实时绘制 GPU 和 CPU 占用曲线，运行 PyTorch 基准测试（matmul、显存带宽、主机与设备间拷贝、真实训练步），并对照配件规格评判每项结果。</translation>
    </message>
    <message>
        <source>Guide</source>
        <translation>配置指南</translation>
    </message>
    <message>
        <source>Set up a build or this machine step by step: the driver, CUDA or ROCm, the exact PyTorch install command for your GPU and operating system, checks to run, and fixes for what the probe found.</source>
        <translation>逐步配置装机方案或本机：驱动、CUDA 或 ROCm、适用于您的 GPU 和操作系统的确切 PyTorch 安装命令、需要运行的检查，以及针对检测所发现问题的修复方法。</translation>
    </message>
    <message>
        <source>eGPU</source>
        <translation>外接显卡</translation>
    </message>
    <message>
        <source>Find out whether an external GPU will help your laptop: the port and its link, the enclosure, the card, the expected slowdown for your workload, and whether the one plugged in runs at full speed.</source>
        <translation>判断外接显卡 (eGPU) 能否帮到您的笔记本：接口及其链路、扩展坞、显卡、您的工作负载预计会变慢多少，以及当前接入的显卡是否全速运行。</translation>
    </message>
    <message>
        <source>Fleet</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Judge a whole cluster: open the probe reports of every node, from `gpuconfig fleet run --slurm` or any scheduler, see each node against the rest as a heatmap, and find the slow, misconfigured or failed ones.</source>
        <translation>评判整个集群：打开每个节点的探测报告（来自 `gpuconfig fleet run --slurm` 或任意调度器），以热力图对比每个节点与其余节点，找出偏慢、配置不一致或失败的节点。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Import price list…</source>
        <translation>导入价格表…</translation>
    </message>
    <message>
        <source>Exchange rate…</source>
        <translation>汇率…</translation>
    </message>
    <message>
        <source>Fit headroom…</source>
        <translation>显存余量…</translation>
    </message>
    <message>
        <source>The share of each card&apos;s memory every fit verdict keeps free</source>
        <translation>判断是否放得下时，每块显卡预留不用的显存比例</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Market</source>
        <translation>市场</translation>
    </message>
    <message>
        <source>The currency prices start in and the wall circuit a new build assumes</source>
        <translation>价格默认使用的货币，以及新装机方案默认使用的墙插电路</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>About gpuconfig</source>
        <translation>关于 gpuconfig</translation>
    </message>
    <message>
        <source>The window is rebuilt in the new language. Rebuild it now, or at the next start?</source>
        <translation>窗口将以新语言重建。现在重建，还是下次启动时再生效？</translation>
    </message>
    <message>
        <source> Work still running stops.</source>
        <translation>正在运行的任务会停止。</translation>
    </message>
    <message>
        <source>Rebuild now</source>
        <translation>现在重建</translation>
    </message>
    <message>
        <source>At the next start</source>
        <translation>下次启动时</translation>
    </message>
    <message>
        <source>Catalog: {n} parts</source>
        <translation>硬件目录：{n} 个配件</translation>
    </message>
    <message>
        <source>Loaded from the catalog files at {when}</source>
        <translation>于 {when} 从硬件目录文件加载</translation>
    </message>
    <message>
        <source>The catalog files have a problem and were not loaded; showing the last good catalog. {error}</source>
        <translation>硬件目录文件有问题，未能加载；正在显示上一次正常加载的硬件目录。{error}</translation>
    </message>
    <message>
        <source>No USD/CNY rate</source>
        <translation>无 USD/CNY 汇率</translation>
    </message>
    <message>
        <source>your rate</source>
        <translation>自定汇率</translation>
    </message>
    <message>
        <source>Import price list</source>
        <translation>导入价格表</translation>
    </message>
    <message>
        <source>Price lists (*.csv)</source>
        <translation>价格表 (*.csv)</translation>
    </message>
    <message>
        <source>Price list not imported</source>
        <translation>价格表未导入</translation>
    </message>
    <message>
        <source>Exchange rate</source>
        <translation>汇率</translation>
    </message>
    <message>
        <source>CNY per 1 USD:</source>
        <translation>1 USD 兑换的 CNY：</translation>
    </message>
    <message>
        <source>Fit headroom</source>
        <translation>显存余量</translation>
    </message>
    <message>
        <source>Percent of each card&apos;s memory kept free when judging whether a workload fits (for other programs on the card, fragmentation and the estimate&apos;s own error).

Default: {default:g} % — {why}.
Enter {default:g} to follow the default again.</source>
        <translation>判断工作负载是否放得下时，每块显卡预留不用的显存百分比（留给显卡上的其他程序、显存碎片以及估算本身的误差）。

默认值：{default:g} %——{why}。
输入 {default:g} 即可重新使用默认值。</translation>
    </message>
    <message>
        <source>the default</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>yours</source>
        <translation>自定</translation>
    </message>
    <message>
        <source>Fit headroom: {percent} of each card kept free ({which})</source>
        <translation>显存余量：每块显卡预留 {percent} 不用（{which}）</translation>
    </message>
    <message>
        <source>&lt;h3&gt;gpuconfig {version}&lt;/h3&gt;&lt;p&gt;Plan, check and set up machines that run PyTorch.&lt;/p&gt;&lt;p&gt;Built with Qt {qt} and PySide6 {pyside} (LGPLv3), pyqtgraph, psutil and nvidia-ml-py.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;gpuconfig {version}&lt;/h3&gt;&lt;p&gt;规划、检查并配置运行 PyTorch 的机器。&lt;/p&gt;&lt;p&gt;基于 Qt {qt} 和 PySide6 {pyside} (LGPLv3)、pyqtgraph、psutil 及 nvidia-ml-py 构建。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>Markets</name>
    <message>
        <source>United States (USD, 120 V)</source>
        <translation>美国（USD，120 V）</translation>
    </message>
    <message>
        <source>China (CNY, 220 V)</source>
        <translation>中国（CNY，220 V）</translation>
    </message>
</context>
<context>
    <name>MeasureBar</name>
    <message>
        <source>Measure the attached eGPU</source>
        <translation>测量已接入的外接显卡 (eGPU)</translation>
    </message>
    <message>
        <source>Copy to the card and run a training step fed from the host, in a worker process, and judge the copy rate against the link</source>
        <translation>在工作进程中向显卡拷贝数据并运行一个由主机供数的训练步，再对照链路评判拷贝速率</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Starting the benchmark worker…</source>
        <translation>正在启动基准测试工作进程…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Measuring: {what}</source>
        <translation>正在测量：{what}</translation>
    </message>
    <message>
        <source>Measured in {seconds:.0f} s.</source>
        <translation>测量完成，用时 {seconds:.0f} s。</translation>
    </message>
    <message>
        <source>Not measured: {error}</source>
        <translation>未能测量：{error}</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
</context>
<context>
    <name>MemoryBar</name>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV cache</translation>
    </message>
    <message>
        <source>Overhead</source>
        <translation>额外开销</translation>
    </message>
    <message>
        <source>peak {size}</source>
        <translation>峰值 {size}</translation>
    </message>
    <message>
        <source>{name}: {size} ({share:.0%} of the peak)</source>
        <translation>{name}：{size}（占峰值的 {share:.0%}）</translation>
    </message>
</context>
<context>
    <name>PartDetail</name>
    <message>
        <source>Revert to catalog price</source>
        <translation>恢复为硬件目录价格</translation>
    </message>
    <message>
        <source>Select a part to see every figure and its source.</source>
        <translation>选择一个配件，查看它的每项数据及来源。</translation>
    </message>
    <message>
        <source>no public price</source>
        <translation>无公开价格</translation>
    </message>
    <message>
        <source> per hour</source>
        <translation>/小时</translation>
    </message>
    <message>
        <source> at {rate:g} CNY/USD</source>
        <translation>（汇率 {rate:g} CNY/USD）</translation>
    </message>
    <message>
        <source>computed from the slot positions</source>
        <translation>根据插槽位置计算</translation>
    </message>
    <message>
        <source>your price, set {date}</source>
        <translation>自定义价格，设于 {date}</translation>
    </message>
    <message>
        <source>Catalog price: {price}</source>
        <translation>硬件目录价格：{price}</translation>
    </message>
    <message>
        <source>source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>{age} old</source>
        <translation>已有 {age}</translation>
    </message>
    <message>
        <source>{age}: check a current price</source>
        <translation>{age}：请核对当前价格</translation>
    </message>
    <message>
        <source>No public price: {why}</source>
        <translation>无公开价格：{why}</translation>
    </message>
    <message>
        <source>Also published:</source>
        <translation>其他公开价格：</translation>
    </message>
    <message>
        <source>read</source>
        <translation>读取于</translation>
    </message>
    <message>
        <source>released</source>
        <translation>发布于</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
</context>
<context>
    <name>PartDetailDialog</name>
    <message>
        <source>Show in the Catalog tab</source>
        <translation>在“硬件目录”选项卡中显示</translation>
    </message>
</context>
<context>
    <name>PartPicker</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Key specs</source>
        <translation>主要规格</translation>
    </message>
    <message>
        <source>Price ({c})</source>
        <translation>价格（{c}）</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Parts that bring no new problem come first; hover over Check to read what the checker says.</source>
        <translation>不会带来新问题的配件排在前面；将鼠标悬停在“检查”列上可查看检查器的说明。</translation>
    </message>
    <message>
        <source>  (in the build)</source>
        <translation>  （已在装机方案中）</translation>
    </message>
    <message>
        <source>unpriced</source>
        <translation>无价格</translation>
    </message>
    <message>
        <source>✖ {n} new problem(s)</source>
        <translation>✖ {n} 个新问题</translation>
    </message>
    <message>
        <source>✖ fails as now ({n})</source>
        <translation>✖ 仍不通过（{n}）</translation>
    </message>
    <message>
        <source>▲ passes, {n} warning(s)</source>
        <translation>▲ 通过，{n} 个警告</translation>
    </message>
    <message>
        <source>✔ passes</source>
        <translation>✔ 通过</translation>
    </message>
    <message>
        <source>Every rule passes with this part.</source>
        <translation>使用此配件时所有规则均通过。</translation>
    </message>
</context>
<context>
    <name>PartTableModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Vendor</source>
        <translation>厂商</translation>
    </message>
    <message>
        <source>Price date</source>
        <translation>价格日期</translation>
    </message>
    <message>
        <source>Price ({currency})</source>
        <translation>价格（{currency}）</translation>
    </message>
    <message>
        <source>/h</source>
        <translation>/小时</translation>
    </message>
    <message>
        <source>{date} · {age}</source>
        <translation>{date} · {age}</translation>
    </message>
    <message>
        <source>This price is {age} old (more than six months): check a current one.</source>
        <translation>此价格已有 {age}（超过六个月）：请核对当前价格。</translation>
    </message>
    <message>
        <source>No public price: {why}. Double-click to enter your own.</source>
        <translation>无公开价格：{why}。双击可输入自定价格。</translation>
    </message>
    <message>
        <source>No public price. Double-click to enter your own.</source>
        <translation>无公开价格。双击可输入自定价格。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Your price {own}, set {date}. Catalog price: {was}. Right-click to revert.</source>
        <translation>自定价格 {own}，设置于 {date}。硬件目录价格：{was}。右键单击可恢复。</translation>
    </message>
    <message>
        <source>{own}, {basis}, {date}
{source}</source>
        <translation>{own}，{basis}，{date}
{source}</translation>
    </message>
</context>
<context>
    <name>PlaceholderTab</name>
    <message>
        <source>Not available in this version yet.</source>
        <translation>此版本暂不提供该功能。</translation>
    </message>
</context>
<context>
    <name>PlanScatter</name>
    <message>
        <source>Cost ({currency})</source>
        <translation>成本（{currency}）</translation>
    </message>
    <message>
        <source>Throughput ({unit})</source>
        <translation>吞吐量（{unit}）</translation>
    </message>
</context>
<context>
    <name>PlanView</name>
    <message>
        <source>Build</source>
        <translation>装机方案</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>调整</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>per 1,000</source>
        <translation>每 1,000</translation>
    </message>
    <message>
        <source>Wall</source>
        <translation>墙插功耗</translation>
    </message>
    <message>
        <source>Double-click a build to load it into the list</source>
        <translation>双击装机方案可将其载入配置清单</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>Per hour</source>
        <translation>每小时</translation>
    </message>
    <message>
        <source>per 1M samples</source>
        <translation>每 100 万样本</translation>
    </message>
    <message>
        <source>Buy or rent</source>
        <translation>购买或租用</translation>
    </message>
    <message>
        <source>Job time</source>
        <translation>任务耗时</translation>
    </message>
    <message>
        <source>Per job</source>
        <translation>每次任务</translation>
    </message>
    <message>
        <source>First job</source>
        <translation>首次任务</translation>
    </message>
    <message>
        <source>Pays off after</source>
        <translation>回本所需</translation>
    </message>
    <message>
        <source>A bought build: the job&apos;s electricity at the build&apos;s full power (every card at its board power and the CPU at its package power, through the supply), an upper bound; a rental: the rent</source>
        <translation>购买的装机方案：按整机满功率（每块显卡按其板卡功耗、CPU 按其封装功耗，并计入电源损耗）计算的任务电费，为上限值；租用：租金</translation>
    </message>
    <message>
        <source>A bought build: its price plus the first job&apos;s electricity</source>
        <translation>购买的装机方案：其价格加上首次任务的电费</translation>
    </message>
    <message>
        <source>The jobs after which buying costs less than renting the cheapest instance per sample</source>
        <translation>完成多少次任务后，购买比按每样本成本租用最便宜的实例更省钱</translation>
    </message>
    <message>
        <source>Builds</source>
        <translation>装机方案</translation>
    </message>
    <message>
        <source>Rent</source>
        <translation>租用</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Choose a workload and a budget, then Recommend.</source>
        <translation>选择工作负载和预算，然后点击“推荐”。</translation>
    </message>
    <message>
        <source>Speed
({unit})</source>
        <translation>速度
（{unit}）</translation>
    </message>
    <message>
        <source>{unit}
per 1,000 {c}</source>
        <translation>{unit}
每 1,000 {c}</translation>
    </message>
    <message>
        <source>per 1M
samples</source>
        <translation>每 100 万
样本</translation>
    </message>
    <message>
        <source>{strategy}: micro-batch {b} per GPU, {n} accumulated per step</source>
        <translation>{strategy}：每块 GPU 微批大小 {b}，每步累积 {n} 次</translation>
    </message>
    <message>
        <source>{n} ({g} GPUs)</source>
        <translation>{n}（{g} 块 GPU）</translation>
    </message>
    <message>
        <source>Builds ({n})</source>
        <translation>装机方案（{n}）</translation>
    </message>
    <message>
        <source>Rent ({n})</source>
        <translation>租用（{n}）</translation>
    </message>
    <message>
        <source>Builds that hold the workload: {n} ({considered} GPU choices looked at), each with {headroom} of its cards&apos; memory kept free. ★ marks those no other beats on both cost and speed; double-click one to load it.</source>
        <translation>能容纳该工作负载的装机方案：{n} 个（共考察 {considered} 种 GPU 选择），每个方案的显卡均保留 {headroom} 的显存余量。★ 表示成本和速度都没有被其他方案同时超越的方案；双击即可载入。</translation>
    </message>
    <message>
        <source>Without a speed estimate (no throughput figure in the catalog): {n}.</source>
        <translation>无速度估算（硬件目录中无吞吐量数据）：{n} 个。</translation>
    </message>
    <message>
        <source>Changes tried where the workload does not fit as asked: {changes}.</source>
        <translation>工作负载按原设置放不下时尝试过的调整：{changes}。</translation>
    </message>
    <message>
        <source>Left out: {what}</source>
        <translation>已略过：{what}</translation>
    </message>
    <message>
        <source>Give the dataset&apos;s samples to see the job on each</source>
        <translation>填写数据集的样本数，即可查看各方案的任务情况</translation>
    </message>
    <message>
        <source>The job: {samples} samples × {epochs} epochs = {total} samples.</source>
        <translation>任务：{samples} 个样本 × {epochs} 轮 = {total} 个样本。</translation>
    </message>
    <message>
        <source>Electricity is not counted: give its price to see it.</source>
        <translation>未计入电费：填写电价即可查看。</translation>
    </message>
    <message>
        <source>Electricity at {price} per kWh, at each build&apos;s full power (an upper bound).</source>
        <translation>电价 {price}/kWh，按各装机方案的满功率计算（上限值）。</translation>
    </message>
    <message>
        <source>No rental with a known speed to compare with</source>
        <translation>没有已知速度的租用方案可供比较</translation>
    </message>
    <message>
        <source>Compare renting to see when buying pays off</source>
        <translation>开启“比较租用”即可查看购买何时回本</translation>
    </message>
    <message>
        <source>never</source>
        <translation>永不</translation>
    </message>
    <message>
        <source>Renting costs less per job than this build&apos;s electricity</source>
        <translation>每次任务的租金低于此装机方案的电费</translation>
    </message>
    <message>
        <source>{n} jobs</source>
        <translation>{n} 次任务</translation>
    </message>
    <message>
        <source>Against renting {instance}</source>
        <translation>与租用 {instance} 相比</translation>
    </message>
    <message>
        <source>Buy {build}</source>
        <translation>购买 {build}</translation>
    </message>
    <message>
        <source>not counted</source>
        <translation>未计入</translation>
    </message>
    <message>
        <source>Rent {n} × {instance}</source>
        <translation>租用 {n} × {instance}</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>The catalog has no speed figure for this GPU</source>
        <translation>硬件目录中没有此 GPU 的速度数据</translation>
    </message>
    <message>
        <source>{n} h</source>
        <translation>{n} h</translation>
    </message>
    <message>
        <source>{n} days</source>
        <translation>{n} 天</translation>
    </message>
    <message>
        <source>as asked</source>
        <translation>按原设置</translation>
    </message>
    <message>
        <source>The workload runs as asked</source>
        <translation>工作负载按原设置运行</translation>
    </message>
    <message>
        <source>{change} ({factor:.2f}x time per sample)</source>
        <translation>{change}（每样本耗时为 {factor:.2f} 倍）</translation>
    </message>
    <message>
        <source>Changes what is trained or computed: the result is not the workload&apos;s as asked</source>
        <translation>改变了训练或计算的内容：结果与原设置的工作负载不同</translation>
    </message>
    <message>
        <source>Keeps what is trained: the same result, at this cost in time</source>
        <translation>训练内容不变：结果相同，但需付出此时间代价</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>tokens/s</translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation>样本/s</translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation>tok/s</translation>
    </message>
    <message>
        <source>, acc. {n}</source>
        <translation>，累积 {n}</translation>
    </message>
    <message>
        <source>{peak:.1f} GiB per GPU of {size:.0f} GiB</source>
        <translation>每块 GPU {peak:.1f} GiB，共 {size:.0f} GiB</translation>
    </message>
</context>
<context>
    <name>Planner</name>
    <message>
        <source>{enclosure}: no priced supply for it</source>
        <translation>{enclosure}：硬件目录中没有适用于它且带价格的电源</translation>
    </message>
    <message>
        <source>{enclosure}: no measured rate for its link</source>
        <translation>{enclosure}：其链路没有实测速率</translation>
    </message>
    <message>
        <source>no priced eGPU enclosure in the catalog</source>
        <translation>硬件目录中没有带价格的外接显卡扩展坞</translation>
    </message>
    <message>
        <source>no enclosure works: {reasons}</source>
        <translation>没有可用的扩展坞：{reasons}</translation>
    </message>
    <message>
        <source>{link}, about {rate:g} GB/s host to device</source>
        <translation>{link}，主机到设备约 {rate:g} GB/s</translation>
    </message>
    <message>
        <source>no board in the catalog seats {count} of these {width}-slot cards</source>
        <translation>硬件目录中没有能装下 {count} 块此款 {width} 槽宽显卡的主板</translation>
    </message>
    <message>
        <source>no CPU in the catalog has the PCIe lanes for the board&apos;s slots</source>
        <translation>硬件目录中没有能为主板插槽提供足够 PCIe 通道的 CPU</translation>
    </message>
    <message>
        <source>no memory kit in the catalog matches the platform and holds enough</source>
        <translation>硬件目录中没有与平台匹配且容量足够的内存套装</translation>
    </message>
    <message>
        <source>no supply in the catalog carries {count} of these cards (watts, cables or the wall circuit)</source>
        <translation>硬件目录中没有能带动 {count} 块此款显卡的电源（功率、供电线或墙插电路不足）</translation>
    </message>
    <message>
        <source>no NVMe drive in the catalog is large enough</source>
        <translation>硬件目录中没有容量足够的 NVMe 硬盘</translation>
    </message>
    <message>
        <source>no case in the catalog takes the board, the cards&apos; length and their last slot</source>
        <translation>硬件目录中没有能容纳该主板、显卡长度及其最后一个插槽的机箱</translation>
    </message>
    <message>
        <source>every candidate failed a compatibility rule</source>
        <translation>所有候选配置都未通过某条兼容性规则</translation>
    </message>
    <message>
        <source>the catalog has no priced boards</source>
        <translation>硬件目录中没有带价格的主板</translation>
    </message>
    <message>
        <source>as asked</source>
        <translation>按原设置</translation>
    </message>
    <message>
        <source>{change} ({factor:.2f}x time per sample)</source>
        <translation>{change}（每样本耗时为 {factor:.2f} 倍）</translation>
    </message>
    <message>
        <source>optimizer on the CPU (ZeRO-Offload) (the CPU&apos;s own optimizer step is not counted)</source>
        <translation>优化器卸载到 CPU（ZeRO-Offload）（未计入 CPU 自身的优化器步骤）</translation>
    </message>
    <message>
        <source>batches of {batch}, {count} one after another</source>
        <translation>每批 {batch}，依次运行 {count} 批</translation>
    </message>
    <message>
        <source>Several cards in one machine: the step is paced by the slower of compute and the traffic between the cards over the slowest slot&apos;s PCIe link ({source}).</source>
        <translation>单机多卡：单步时间取决于计算与显卡间经最慢插槽 PCIe 链路的通信流量二者中较慢的一方（{source}）。</translation>
    </message>
    <message>
        <source>Rented nodes: NVLink inside a node where the instance has it; the network between nodes is not modelled.</source>
        <translation>租用节点：实例具备 NVLink 时，节点内使用 NVLink；节点间的网络未建模。</translation>
    </message>
    <message>
        <source>Fits: the peak per GPU within the card&apos;s memory less {headroom} headroom ({why}).</source>
        <translation>放得下：每个 GPU 的峰值不超过显卡显存减去 {headroom} 余量后的容量（{why}）。</translation>
    </message>
    <message>
        <source>Laptop with eGPU: one card in an enclosure; each step&apos;s batch crosses the link before the step&apos;s kernels, at the link&apos;s measured copy rate (catalog/egpu.toml).</source>
        <translation>笔记本 + 外接显卡：扩展坞中装一块显卡；每步的批数据在该步的内核运行前经链路传输，按链路的实测复制速率计算（catalog/egpu.toml）。</translation>
    </message>
    <message>
        <source>The catalog has no rack chassis: price the chassis separately.</source>
        <translation>硬件目录中没有机架式机箱：请另行核算机箱价格。</translation>
    </message>
    <message>
        <source>{name} ({date}, {age} old)</source>
        <translation>{name}（{date}，已有 {age}）</translation>
    </message>
    <message>
        <source>Prices older than six months in these results: {parts}. Check them.</source>
        <translation>这些结果用到了超过六个月的价格：{parts}。请核对。</translation>
    </message>
    <message>
        <source>{count} GPUs of the catalog have no price and were left out: {names}.</source>
        <translation>目录中有 {count} 款 GPU 没有价格，未纳入比较：{names}。</translation>
    </message>
    <message>
        <source>NVLink {rate:g} GB/s per direction</source>
        <translation>NVLink，每个方向 {rate:g} GB/s</translation>
    </message>
    <message>
        <source>Renting: {nodes} x {instance} ({gpus} GPUs) at {price}/h.</source>
        <translation>租用：{nodes} × {instance}（{gpus} 块 GPU），{price}/h。</translation>
    </message>
    <message>
        <source>No GPU in the catalog holds {what} with up to {n} GPUs.</source>
        <translation>硬件目录中没有任何 GPU 能在不超过 {n} 块的情况下容纳 {what}。</translation>
    </message>
    <message>
        <source>Nothing within {budget} holds {what}.</source>
        <translation>在 {budget} 预算内没有能容纳 {what} 的方案。</translation>
    </message>
    <message>
        <source>Nothing within the limits holds {what}.</source>
        <translation>在限制条件内没有能容纳 {what} 的方案。</translation>
    </message>
    <message>
        <source>The cheapest that does: {cheapest}; with the fewest GPUs: {fewest}.</source>
        <translation>能容纳的最便宜方案：{cheapest}；GPU 数量最少的方案：{fewest}。</translation>
    </message>
    <message>
        <source>The cheapest that does: {cheapest}.</source>
        <translation>能容纳的最便宜方案：{cheapest}。</translation>
    </message>
    <message>
        <source>across {n} machines of 8</source>
        <translation>分布在 {n} 台 8 卡机器上</translation>
    </message>
    <message>
        <source>in one machine</source>
        <translation>装在单台机器中</translation>
    </message>
    <message>
        <source>{count} x {gpu} ({memory:.0f} GiB each, {strategy}, {change}, {peak:.1f} GiB used per GPU) {where}, {cost} for the GPUs alone</source>
        <translation>{count} × {gpu}（每块 {memory:.0f} GiB，{strategy}，{change}，每块 GPU 占用 {peak:.1f} GiB），{where}，仅 GPU 就需 {cost}</translation>
    </message>
    <message>
        <source>{count} x {gpu} ({memory:.0f} GiB each, {strategy}, {peak:.1f} GiB used per GPU) {where}, {cost} for the GPUs alone</source>
        <translation>{count} × {gpu}（每块 {memory:.0f} GiB，{strategy}，每块 GPU 占用 {peak:.1f} GiB），{where}，仅 GPU 就需 {cost}</translation>
    </message>
    <message>
        <source>Renting costs less per sample than this build&apos;s electricity.</source>
        <translation>按每样本计，租用的费用低于此装机方案的电费。</translation>
    </message>
    <message>
        <source>Buying {build} pays for itself against renting {instance} after {hours:,.0f} hours of training on it ({days:,.0f} days around the clock) (electricity not counted).</source>
        <translation>与租用 {instance} 相比，购买 {build} 并在其上训练 {hours:,.0f} 小时后即可回本（全天候运行约 {days:,.0f} 天；未计入电费）。</translation>
    </message>
    <message>
        <source>Buying {build} pays for itself against renting {instance} after {hours:,.0f} hours of training on it ({days:,.0f} days around the clock) (electricity at the build&apos;s full power).</source>
        <translation>与租用 {instance} 相比，购买 {build} 并在其上训练 {hours:,.0f} 小时后即可回本（全天候运行约 {days:,.0f} 天；电费按装机方案满功率计算）。</translation>
    </message>
</context>
<context>
    <name>PowerBar</name>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Rest</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Sustained draw {w:,} W: GPUs {gpu:,} W, CPU {cpu:,} W ({basis}), rest {rest:,} W</source>
        <translation>持续功耗 {w:,} W：GPU {gpu:,} W，CPU {cpu:,} W（{basis}），其他 {rest:,} W</translation>
    </message>
    <message>
        <source>A supply for this build must be rated {w:,} W (cards x {factor:g} for their power spikes)</source>
        <translation>此装机方案的电源额定功率须达 {w:,} W（显卡功耗 × {factor:g}，以应对功耗尖峰）</translation>
    </message>
    <message>
        <source>At the wall about {w:,} W; the circuit ({label}) carries {limit:,} W</source>
        <translation>墙插功耗约 {w:,} W；该电路（{label}）可承载 {limit:,} W</translation>
    </message>
    <message>
        <source>Supply</source>
        <translation>电源</translation>
    </message>
    <message>
        <source>Wall</source>
        <translation>墙插</translation>
    </message>
    <message>
        <source>needs {w:,} W</source>
        <translation>需要 {w:,} W</translation>
    </message>
    <message>
        <source>supply {w:,} W</source>
        <translation>电源 {w:,} W</translation>
    </message>
    <message>
        <source>{w:,} W at the wall</source>
        <translation>墙插 {w:,} W</translation>
    </message>
    <message>
        <source>circuit {w:,} W</source>
        <translation>电路 {w:,} W</translation>
    </message>
</context>
<context>
    <name>PriceScatter</name>
    <message>
        <source>X</source>
        <translation>X</translation>
    </message>
    <message>
        <source>Y</source>
        <translation>Y</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>per 1,000 {currency}</source>
        <translation>每 1,000 {currency}</translation>
    </message>
    <message>
        <source>{n} of {total} plotted</source>
        <translation>已绘制 {n}/{total} 项</translation>
    </message>
    <message>
        <source> (the others lack a price or this figure)</source>
        <translation>（其余项缺少价格或该数值）</translation>
    </message>
</context>
<context>
    <name>Probe</name>
    <message>
        <source>no Thunderbolt/USB4 controller found (/sys/bus/thunderbolt has no devices)</source>
        <translation>未找到 Thunderbolt/USB4 控制器（/sys/bus/thunderbolt 下没有设备）</translation>
    </message>
    <message>
        <source>the OS does not report physical cores</source>
        <translation>操作系统未报告物理核心数</translation>
    </message>
    <message>
        <source>the OS does not report logical cores</source>
        <translation>操作系统未报告逻辑核心数</translation>
    </message>
    <message>
        <source>the OS does not report a maximum CPU frequency</source>
        <translation>操作系统未报告 CPU 最高频率</translation>
    </message>
    <message>
        <source>this interpreter</source>
        <translation>当前解释器</translation>
    </message>
    <message>
        <source>NVML is not initialised</source>
        <translation>NVML 未初始化</translation>
    </message>
    <message>
        <source>NVML rejected the query (invalid argument)</source>
        <translation>NVML 拒绝了查询（参数无效）</translation>
    </message>
    <message>
        <source>not supported on this GPU</source>
        <translation>此 GPU 不支持</translation>
    </message>
    <message>
        <source>no permission to read this (NVML needs more privileges)</source>
        <translation>无权读取（NVML 需要更高权限）</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>the GPU&apos;s external power cables are not connected properly</source>
        <translation>GPU 的外接电源线未正确连接</translation>
    </message>
    <message>
        <source>the NVIDIA driver is not loaded</source>
        <translation>NVIDIA 驱动未加载</translation>
    </message>
    <message>
        <source>NVML timed out</source>
        <translation>NVML 超时</translation>
    </message>
    <message>
        <source>no NVIDIA driver (libnvidia-ml not found)</source>
        <translation>没有 NVIDIA 驱动（未找到 libnvidia-ml）</translation>
    </message>
    <message>
        <source>this NVIDIA driver is too old for this query</source>
        <translation>此 NVIDIA 驱动版本过旧，不支持该查询</translation>
    </message>
    <message>
        <source>the GPU&apos;s infoROM is corrupted</source>
        <translation>GPU 的 infoROM 已损坏</translation>
    </message>
    <message>
        <source>the GPU has fallen off the bus (GPU is lost)</source>
        <translation>GPU 已从总线上掉线（GPU is lost）</translation>
    </message>
    <message>
        <source>the GPU needs a reset</source>
        <translation>GPU 需要重置</translation>
    </message>
    <message>
        <source>the operating system blocked the request</source>
        <translation>操作系统阻止了该请求</translation>
    </message>
    <message>
        <source>NVML and the kernel driver differ (reboot after a driver update)</source>
        <translation>NVML 与内核驱动版本不一致（更新驱动后请重启）</translation>
    </message>
    <message>
        <source>no data yet</source>
        <translation>暂无数据</translation>
    </message>
</context>
<context>
    <name>ProbeExports</name>
    <message>
        <source>Export series</source>
        <translation>导出数据序列</translation>
    </message>
    <message>
        <source>CSV…</source>
        <translation>CSV…</translation>
    </message>
    <message>
        <source>JSON…</source>
        <translation>JSON…</translation>
    </message>
    <message>
        <source>Export run</source>
        <translation>导出运行结果</translation>
    </message>
    <message>
        <source>HTML…</source>
        <translation>HTML…</translation>
    </message>
    <message>
        <source>PDF…</source>
        <translation>PDF…</translation>
    </message>
    <message>
        <source>Not exported: {error}</source>
        <translation>未导出：{error}</translation>
    </message>
    <message>
        <source>Exported to {path}</source>
        <translation>已导出到 {path}</translation>
    </message>
    <message>
        <source>Export the series</source>
        <translation>导出数据序列</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export the run</source>
        <translation>导出运行结果</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
</context>
<context>
    <name>ProbeReport</name>
    <message>
        <source>not visible from here (another container or user)</source>
        <translation>此处不可见（属于其他容器或用户）</translation>
    </message>
    <message>
        <source>CPU use by other processes</source>
        <translation>其他进程的 CPU 占用</translation>
    </message>
    <message>
        <source>not measured on this OS (no /proc/stat)</source>
        <translation>此操作系统上未测量（无 /proc/stat）</translation>
    </message>
    <message>
        <source>not recorded in this report</source>
        <translation>本报告中未记录</translation>
    </message>
    <message>
        <source>median {median:.0f} %, at most {most:.0f} % of the {cpus} CPUs while a figure was measured; busy during {n} of {total} figures</source>
        <translation>测量期间中位数 {median:.0f} %，最高 {most:.0f} %（共 {cpus} 个 CPU）；{total} 项测量值中有 {n} 项测量时 CPU 繁忙</translation>
    </message>
    <message>
        <source>median {median:.0f} %, at most {most:.0f} % of the {cpus} CPUs while a figure was measured</source>
        <translation>测量期间中位数 {median:.0f} %，最高 {most:.0f} %（共 {cpus} 个 CPU）</translation>
    </message>
    <message>
        <source>median {median:.0f} %, at most {most:.0f} % while a figure was measured; busy during {n} of {total} figures</source>
        <translation>测量期间中位数 {median:.0f} %，最高 {most:.0f} %；{total} 项测量值中有 {n} 项测量时 CPU 繁忙</translation>
    </message>
    <message>
        <source>median {median:.0f} %, at most {most:.0f} % while a figure was measured</source>
        <translation>测量期间中位数 {median:.0f} %，最高 {most:.0f} %</translation>
    </message>
    <message>
        <source>median {median:.1f} %, at most {most:.1f} %</source>
        <translation>中位数 {median:.1f} %，最高 {most:.1f} %</translation>
    </message>
    <message>
        <source>{n} of {total} unstable: {figures}</source>
        <translation>{total} 项中有 {n} 项不稳定：{figures}</translation>
    </message>
    <message>
        <source>none: all {n} figures were stable</source>
        <translation>无：全部 {n} 项测量值均稳定</translation>
    </message>
    <message>
        <source>CPU time stolen by the hypervisor</source>
        <translation>被虚拟机监控程序窃取的 CPU 时间</translation>
    </message>
    <message>
        <source>Figures not judged</source>
        <translation>未评判的测量值</translation>
    </message>
    <message>
        <source>Against this machine&apos;s earlier runs</source>
        <translation>与本机此前运行的对比</translation>
    </message>
    <message>
        <source>no earlier run of this suite in this Python and torch to compare with</source>
        <translation>没有在相同 Python 和 torch 下运行此测试套件的早前记录可供对比</translation>
    </message>
    <message>
        <source>{n} figures held against up to {runs} earlier runs: median {off:.1f} % off; {away} more than ±{limit:.0f} % away: {figures}</source>
        <translation>{n} 项测量值与最多 {runs} 次此前运行对比：偏差中位数 {off:.1f} %；{away} 项偏差超过 ±{limit:.0f} %：{figures}</translation>
    </message>
    <message>
        <source>{n} figures held against up to {runs} earlier runs: median {off:.1f} % off</source>
        <translation>{n} 项测量值与最多 {runs} 次此前运行对比：偏差中位数 {off:.1f} %</translation>
    </message>
    <message>
        <source>Other processes on the GPUs</source>
        <translation>GPU 上的其他进程</translation>
    </message>
    <message>
        <source>not listed: {reason}</source>
        <translation>无法列出：{reason}</translation>
    </message>
    <message>
        <source>none at the start or the end of the run</source>
        <translation>运行开始和结束时均无</translation>
    </message>
    <message>
        <source>GPU {gpu}: {name} (pid {pid}, {memory:.1f} GiB) at the start</source>
        <translation>开始时 GPU {gpu} 上有 {name}（pid {pid}，{memory:.1f} GiB）</translation>
    </message>
    <message>
        <source>GPU {gpu}: {name} (pid {pid}) at the start</source>
        <translation>开始时 GPU {gpu} 上有 {name}（pid {pid}）</translation>
    </message>
    <message>
        <source>GPU {gpu}: {name} (pid {pid}, {memory:.1f} GiB) at the end</source>
        <translation>结束时 GPU {gpu} 上有 {name}（pid {pid}，{memory:.1f} GiB）</translation>
    </message>
    <message>
        <source>GPU {gpu}: {name} (pid {pid}) at the end</source>
        <translation>结束时 GPU {gpu} 上有 {name}（pid {pid}）</translation>
    </message>
    <message>
        <source>GPU {gpu}: {name} (pid {pid}, {memory:.1f} GiB) at the {when}</source>
        <translation>{when} 时 GPU {gpu} 上有 {name}（pid {pid}，{memory:.1f} GiB）</translation>
    </message>
    <message>
        <source>GPU {gpu}: {name} (pid {pid}) at the {when}</source>
        <translation>{when} 时 GPU {gpu} 上有 {name}（pid {pid}）</translation>
    </message>
    <message>
        <source>none while it worked</source>
        <translation>运行期间无</translation>
    </message>
    <message>
        <source>GPU {index} clock events</source>
        <translation>GPU {index} 时钟事件</translation>
    </message>
    <message>
        <source>hottest {hottest:.0f} °C, most power {power:.0f} W</source>
        <translation>最高温度 {hottest:.0f} °C，最大功耗 {power:.0f} W</translation>
    </message>
    <message>
        <source>hottest {hottest:.0f} °C</source>
        <translation>最高温度 {hottest:.0f} °C</translation>
    </message>
    <message>
        <source>most power {power:.0f} W</source>
        <translation>最大功耗 {power:.0f} W</translation>
    </message>
    <message>
        <source>GPU {index} temperature and power</source>
        <translation>GPU {index} 温度与功耗</translation>
    </message>
    <message>
        <source>GPU {index} during the run</source>
        <translation>运行期间的 GPU {index}</translation>
    </message>
    <message>
        <source>not sampled (no live series in this report)</source>
        <translation>未采样（本报告中没有实时数据序列）</translation>
    </message>
    <message>
        <source>gpuconfig egpu --measure names the likely cause. {causes}</source>
        <translation>gpuconfig egpu --measure 可指出可能的原因。{causes}</translation>
    </message>
    <message>
        <source>Matrix multiply</source>
        <translation>矩阵乘法</translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation>访存带宽</translation>
    </message>
    <message>
        <source>Host to device copy</source>
        <translation>主机到设备复制</translation>
    </message>
    <message>
        <source>Device to host copy</source>
        <translation>设备到主机复制</translation>
    </message>
    <message>
        <source>CNN training step</source>
        <translation>CNN 训练步</translation>
    </message>
    <message>
        <source>Transformer training step</source>
        <translation>Transformer 训练步</translation>
    </message>
    <message>
        <source>Training step fed from host memory</source>
        <translation>从主机内存取数据的训练步</translation>
    </message>
    <message>
        <source>DataLoader</source>
        <translation>DataLoader</translation>
    </message>
    <message>
        <source>Disk sequential read</source>
        <translation>磁盘顺序读取</translation>
    </message>
    <message>
        <source>All-reduce</source>
        <translation>All-reduce</translation>
    </message>
    <message>
        <source>PCIe generation under load</source>
        <translation>负载下的 PCIe 代数</translation>
    </message>
    <message>
        <source>PCIe width under load</source>
        <translation>负载下的 PCIe 宽度</translation>
    </message>
    <message>
        <source>AMP</source>
        <translation>AMP</translation>
    </message>
    <message>
        <source>checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <source>AMP + checkpointing</source>
        <translation>AMP + 梯度检查点</translation>
    </message>
    <message>
        <source>batch on the device</source>
        <translation>批数据在设备上</translation>
    </message>
    <message>
        <source>batch from the host</source>
        <translation>批数据来自主机</translation>
    </message>
    <message>
        <source>pinned memory</source>
        <translation>锁页内存</translation>
    </message>
    <message>
        <source>pageable memory</source>
        <translation>可分页内存</translation>
    </message>
    <message>
        <source>Operating system</source>
        <translation>操作系统</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Disks</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>Thunderbolt / USB4</source>
        <translation>Thunderbolt / USB4</translation>
    </message>
    <message>
        <source>Python environments</source>
        <translation>Python 环境</translation>
    </message>
    <message>
        <source>NVIDIA driver</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Physical cores</source>
        <translation>物理核心数</translation>
    </message>
    <message>
        <source>Logical cores</source>
        <translation>逻辑核心数</translation>
    </message>
    <message>
        <source>Maximum clock</source>
        <translation>最高频率</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总容量</translation>
    </message>
    <message>
        <source>Available</source>
        <translation>可用</translation>
    </message>
    <message>
        <source>Swap</source>
        <translation>交换空间</translation>
    </message>
    <message>
        <source>Mount point</source>
        <translation>挂载点</translation>
    </message>
    <message>
        <source>File system</source>
        <translation>文件系统</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>剩余空间</translation>
    </message>
    <message>
        <source>Rotating disk</source>
        <translation>机械硬盘</translation>
    </message>
    <message>
        <source>Found as</source>
        <translation>发现方式</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <source>NVIDIA GPUs</source>
        <translation>NVIDIA GPU 数量</translation>
    </message>
    <message>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <source>CUDA version the driver supports</source>
        <translation>驱动支持的 CUDA 版本</translation>
    </message>
    <message>
        <source>NVML</source>
        <translation>NVML</translation>
    </message>
    <message>
        <source>PCI bus</source>
        <translation>PCI 总线</translation>
    </message>
    <message>
        <source>PCI device ID</source>
        <translation>PCI 设备 ID</translation>
    </message>
    <message>
        <source>PCI subsystem ID</source>
        <translation>PCI 子系统 ID</translation>
    </message>
    <message>
        <source>Power limit</source>
        <translation>功耗上限</translation>
    </message>
    <message>
        <source>Maximum SM clock</source>
        <translation>最高 SM 频率</translation>
    </message>
    <message>
        <source>Maximum memory clock</source>
        <translation>最高显存频率</translation>
    </message>
    <message>
        <source>ECC</source>
        <translation>ECC</translation>
    </message>
    <message>
        <source>ECC errors corrected since the driver loaded</source>
        <translation>驱动加载以来已纠正的 ECC 错误</translation>
    </message>
    <message>
        <source>ECC errors uncorrected since the driver loaded</source>
        <translation>驱动加载以来未纠正的 ECC 错误</translation>
    </message>
    <message>
        <source>ECC errors corrected, lifetime</source>
        <translation>累计已纠正的 ECC 错误</translation>
    </message>
    <message>
        <source>ECC errors uncorrected, lifetime</source>
        <translation>累计未纠正的 ECC 错误</translation>
    </message>
    <message>
        <source>Retired memory pages</source>
        <translation>已停用的显存页</translation>
    </message>
    <message>
        <source>Retired pages, single-bit errors</source>
        <translation>已停用页（单比特错误）</translation>
    </message>
    <message>
        <source>Retired pages, double-bit errors</source>
        <translation>已停用页（双比特错误）</translation>
    </message>
    <message>
        <source>Page retirement pending</source>
        <translation>有待停用的页</translation>
    </message>
    <message>
        <source>Remapped memory rows</source>
        <translation>已重映射的显存行</translation>
    </message>
    <message>
        <source>PCIe link (NVML)</source>
        <translation>PCIe 链路（NVML）</translation>
    </message>
    <message>
        <source>Maximum generation</source>
        <translation>最高代数</translation>
    </message>
    <message>
        <source>Maximum width</source>
        <translation>最大链路宽度</translation>
    </message>
    <message>
        <source>Maximum speed</source>
        <translation>最高速率</translation>
    </message>
    <message>
        <source>GPU&apos;s own maximum generation</source>
        <translation>GPU 自身支持的最高代数</translation>
    </message>
    <message>
        <source>Replays</source>
        <translation>重放次数</translation>
    </message>
    <message>
        <source>MIG</source>
        <translation>MIG</translation>
    </message>
    <message>
        <source>Maximum operating temperature</source>
        <translation>最高工作温度</translation>
    </message>
    <message>
        <source>PCIe link (sysfs)</source>
        <translation>PCIe 链路（sysfs）</translation>
    </message>
    <message>
        <source>Bus</source>
        <translation>总线</translation>
    </message>
    <message>
        <source>External port</source>
        <translation>外部接口</translation>
    </message>
    <message>
        <source>Bridges above it</source>
        <translation>上游桥接器</translation>
    </message>
    <message>
        <source>PyTorch device</source>
        <translation>PyTorch 设备</translation>
    </message>
    <message>
        <source>ROCm (HIP)</source>
        <translation>ROCm (HIP)</translation>
    </message>
    <message>
        <source>cuDNN</source>
        <translation>cuDNN</translation>
    </message>
    <message>
        <source>Architectures compiled in</source>
        <translation>已编译的架构</translation>
    </message>
    <message>
        <source>Device&apos;s architecture compiled in</source>
        <translation>已编译本设备的架构</translation>
    </message>
    <message>
        <source>Architecture used, by device</source>
        <translation>各设备使用的架构</translation>
    </message>
    <message>
        <source>oneDNN (MKL-DNN)</source>
        <translation>oneDNN (MKL-DNN)</translation>
    </message>
    <message>
        <source>CPU kernels</source>
        <translation>CPU 算子指令集</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Device the benchmarks used</source>
        <translation>基准测试所用设备</translation>
    </message>
    <message>
        <source>Compute capability</source>
        <translation>计算能力</translation>
    </message>
    <message>
        <source>Multiprocessors</source>
        <translation>多处理器数</translation>
    </message>
    <message>
        <source>Authorized</source>
        <translation>已授权</translation>
    </message>
    <message>
        <source>CUDA available</source>
        <translation>CUDA 可用</translation>
    </message>
    <message>
        <source>Current</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>Current generation</source>
        <translation>当前代数</translation>
    </message>
    <message>
        <source>Current speed</source>
        <translation>当前速率</translation>
    </message>
    <message>
        <source>Current width</source>
        <translation>当前链路宽度</translation>
    </message>
    <message>
        <source>Corrected</source>
        <translation>已纠正</translation>
    </message>
    <message>
        <source>Deauthorization</source>
        <translation>取消授权</translation>
    </message>
    <message>
        <source>Device name</source>
        <translation>设备名称</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>域</translation>
    </message>
    <message>
        <source>Domains</source>
        <translation>域</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>代数</translation>
    </message>
    <message>
        <source>Generation name</source>
        <translation>代数名称</translation>
    </message>
    <message>
        <source>Index</source>
        <translation>索引</translation>
    </message>
    <message>
        <source>Instruction sets</source>
        <translation>指令集</translation>
    </message>
    <message>
        <source>IOMMU DMA protection</source>
        <translation>IOMMU DMA 保护</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>型号</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>PCIe tunnels</source>
        <translation>PCIe 隧道</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>待生效</translation>
    </message>
    <message>
        <source>Persistence mode</source>
        <translation>持久模式</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>发行版本</translation>
    </message>
    <message>
        <source>Route</source>
        <translation>路由</translation>
    </message>
    <message>
        <source>RX lanes</source>
        <translation>RX 通道数</translation>
    </message>
    <message>
        <source>RX link</source>
        <translation>RX 链路速率</translation>
    </message>
    <message>
        <source>RX speed</source>
        <translation>RX 单通道速率</translation>
    </message>
    <message>
        <source>Security</source>
        <translation>安全级别</translation>
    </message>
    <message>
        <source>Shutdown temperature</source>
        <translation>关机温度</translation>
    </message>
    <message>
        <source>Slowdown temperature</source>
        <translation>降频温度</translation>
    </message>
    <message>
        <source>TX lanes</source>
        <translation>TX 通道数</translation>
    </message>
    <message>
        <source>TX link</source>
        <translation>TX 链路速率</translation>
    </message>
    <message>
        <source>TX speed</source>
        <translation>TX 单通道速率</translation>
    </message>
    <message>
        <source>Uncorrected</source>
        <translation>未纠正</translation>
    </message>
    <message>
        <source>Unique ID</source>
        <translation>唯一 ID</translation>
    </message>
    <message>
        <source>Vendor</source>
        <translation>厂商</translation>
    </message>
    <message>
        <source>Vendor name</source>
        <translation>厂商名称</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>Bridge</source>
        <translation>桥接器</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>current</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待生效</translation>
    </message>
    <message>
        <source>corrected</source>
        <translation>已纠正</translation>
    </message>
    <message>
        <source>uncorrected</source>
        <translation>未纠正</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>unavailable — {reason}</source>
        <translation>不可用：{reason}</translation>
    </message>
    <message>
        <source>has {names}</source>
        <translation>支持 {names}</translation>
    </message>
    <message>
        <source>lacks {names}</source>
        <translation>不支持 {names}</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>fail</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>info</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>{n} pass</source>
        <translation>{n} 项通过</translation>
    </message>
    <message>
        <source>{n} warn</source>
        <translation>{n} 项警告</translation>
    </message>
    <message>
        <source>{n} fail</source>
        <translation>{n} 项失败</translation>
    </message>
    <message>
        <source>{n} info</source>
        <translation>{n} 项信息</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Benchmark</source>
        <translation>基准测试</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>离散度</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Type and variant</source>
        <translation>类型与变体</translation>
    </message>
    <message>
        <source>First</source>
        <translation>第一次</translation>
    </message>
    <message>
        <source>Second</source>
        <translation>第二次</translation>
    </message>
    <message>
        <source>Second / first</source>
        <translation>第二次 / 第一次</translation>
    </message>
    <message>
        <source>What</source>
        <translation>事项</translation>
    </message>
    <message>
        <source>Seen</source>
        <translation>观察到的情况</translation>
    </message>
    <message>
        <source>gpuconfig probe of {host}, {when}</source>
        <translation>gpuconfig 检测：{host}，{when}</translation>
    </message>
    <message>
        <source>Probe report: {host}</source>
        <translation>检测报告：{host}</translation>
    </message>
    <message>
        <source>Verdicts</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Benchmarks</source>
        <translation>基准测试</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>Made with gpuconfig {version}.</source>
        <translation>由 gpuconfig {version} 生成。</translation>
    </message>
    <message>
        <source>1 check failed</source>
        <translation>1 项检查失败</translation>
    </message>
    <message>
        <source>{n} checks failed</source>
        <translation>{n} 项检查失败</translation>
    </message>
    <message>
        <source>1 check to look at</source>
        <translation>1 项检查需要留意</translation>
    </message>
    <message>
        <source>{n} checks to look at</source>
        <translation>{n} 项检查需要留意</translation>
    </message>
    <message>
        <source>every judged check passed</source>
        <translation>所有已评判的检查均通过</translation>
    </message>
    <message>
        <source>nothing to judge against: figures reported as measured</source>
        <translation>没有可供评判的依据：按实测结果报告测量值</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Suite</source>
        <translation>测试套件</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>测量值</translation>
    </message>
    <message>
        <source>unknown CPU</source>
        <translation>未知 CPU</translation>
    </message>
    <message>
        <source>{cpu}, {n} cores</source>
        <translation>{cpu}，{n} 核</translation>
    </message>
    <message>
        <source>{size} memory</source>
        <translation>{size} 内存</translation>
    </message>
    <message>
        <source>unnamed NVIDIA GPU</source>
        <translation>未命名的 NVIDIA GPU</translation>
    </message>
    <message>
        <source>none found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>no NVIDIA GPU: {why}</source>
        <translation>无 NVIDIA GPU：{why}</translation>
    </message>
    <message>
        <source>no PyTorch: {reason}</source>
        <translation>无 PyTorch：{reason}</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>仅 CPU</translation>
    </message>
    <message>
        <source>cancelled after {took}</source>
        <translation>{took} 后已取消</translation>
    </message>
    <message>
        <source>took {took}</source>
        <translation>耗时 {took}</translation>
    </message>
    <message>
        <source>took {took}, over its {budget} budget</source>
        <translation>耗时 {took}，超出 {budget} 的时间预算</translation>
    </message>
    <message>
        <source>took {took} of {budget}</source>
        <translation>耗时 {took}（预算 {budget}）</translation>
    </message>
    <message>
        <source>{n} measured</source>
        <translation>{n} 项已测量</translation>
    </message>
    <message>
        <source>{n} unstable (not judged)</source>
        <translation>{n} 项不稳定（未评判）</translation>
    </message>
    <message>
        <source>{n} skipped</source>
        <translation>{n} 项已跳过</translation>
    </message>
    <message>
        <source>{n} failed</source>
        <translation>{n} 项失败</translation>
    </message>
    <message>
        <source>What to do: {advice}</source>
        <translation>建议：{advice}</translation>
    </message>
    <message>
        <source>Threshold [{n}]</source>
        <translation>阈值 [{n}]</translation>
    </message>
    <message>
        <source>Threshold: {threshold}</source>
        <translation>阈值：{threshold}</translation>
    </message>
    <message>
        <source>source [{n}]</source>
        <translation>来源 [{n}]</translation>
    </message>
    <message>
        <source>Unstable:</source>
        <translation>不稳定：</translation>
    </message>
    <message>
        <source>no figure</source>
        <translation>无测量值</translation>
    </message>
    <message>
        <source>{status}: {reason}</source>
        <translation>{status}：{reason}</translation>
    </message>
    <message>
        <source>Value: the median of the samples (each a timed repeat). Spread: half the range of the middle half of the samples, as a share of the median. A figure is unstable, and not judged, when it spreads more than ±{spread:.0f} % or, for a figure of the CPU, when other processes took more than {busy:.0f} % of the CPUs while it was measured.</source>
        <translation>值：各样本（每个样本为一次计时重复）的中位数。离散度：中间一半样本极差的一半，以占中位数的比例表示。当测量值的离散度超过 ±{spread:.0f} %，或（对于 CPU 的测量值）测量期间其他进程占用超过 {busy:.0f} % 的 CPU 时，该测量值视为不稳定，不予评判。</translation>
    </message>
    <message>
        <source>What else was happening</source>
        <translation>同时发生的其他情况</translation>
    </message>
    <message>
        <source>Thresholds and sources</source>
        <translation>阈值与来源</translation>
    </message>
    <message>
        <source>gpuconfig probe: {first_host} {first_started} against {host} {started}</source>
        <translation>gpuconfig 检测：{first_host} {first_started} 对比 {host} {started}</translation>
    </message>
    <message>
        <source>First: {host}, {suite} suite</source>
        <translation>第一次：{host}，{suite} 测试套件</translation>
    </message>
    <message>
        <source>Second: {host}, {suite} suite</source>
        <translation>第二次：{host}，{suite} 测试套件</translation>
    </message>
    <message>
        <source>Probe runs compared</source>
        <translation>检测运行对比</translation>
    </message>
    <message>
        <source>unstable</source>
        <translation>不稳定</translation>
    </message>
    <message>
        <source>Second / first: the second run&apos;s median over the first&apos;s. Between two stable figures a change of more than ±{spread:.0f} % is highlighted (green: higher, red: lower). A ratio involving an unstable figure is muted and marked unstable: it is no finding. Spread: half the range of the middle half of the samples, as a share of the median.</source>
        <translation>第二次 / 第一次：第二次运行的中位数除以第一次运行的中位数。两个稳定测量值之间的变化超过 ±{spread:.0f} % 时会突出显示（绿色：更高；红色：更低）。涉及不稳定测量值的比值以淡色显示并标为不稳定，不能作为结论。离散度：中间一半样本极差的一半，以占中位数的比例表示。</translation>
    </message>
    <message>
        <source>±{spread:.1f} % over {n} pairs</source>
        <translation>±{spread:.1f} %（共 {n} 对）</translation>
    </message>
    <message>
        <source>±{spread:.1f} % over {n} samples</source>
        <translation>±{spread:.1f} %（共 {n} 个样本）</translation>
    </message>
    <message>
        <source>other processes used {others:.0f} % of the {cpus} CPUs, the hypervisor stole {steal:.0f} %</source>
        <translation>其他进程占用了 {cpus} 个 CPU 的 {others:.0f} %，虚拟机监控程序窃取了 {steal:.0f} %</translation>
    </message>
    <message>
        <source>other processes used {others:.0f} % of the {cpus} CPUs</source>
        <translation>其他进程占用了 {cpus} 个 CPU 的 {others:.0f} %</translation>
    </message>
    <message>
        <source>other processes used {others:.0f} % of the CPUs, the hypervisor stole {steal:.0f} %</source>
        <translation>其他进程占用了 CPU 的 {others:.0f} %，虚拟机监控程序窃取了 {steal:.0f} %</translation>
    </message>
    <message>
        <source>other processes used {others:.0f} % of the CPUs</source>
        <translation>其他进程占用了 CPU 的 {others:.0f} %</translation>
    </message>
    <message>
        <source>it was measured while {load}</source>
        <translation>测量期间{load}</translation>
    </message>
    <message>
        <source>its samples spread {spread}, more than ±{limit:.0f} %</source>
        <translation>样本离散度为 {spread}，超过 ±{limit:.0f} %</translation>
    </message>
    <message>
        <source>only {n} of the {fewest} samples it needs fit in its time box</source>
        <translation>限定时间内只采集到所需 {fewest} 个样本中的 {n} 个</translation>
    </message>
    <message>
        <source>likely cause: {load}</source>
        <translation>可能原因：{load}</translation>
    </message>
    <message>
        <source>it lies {off:+.1f} % from this machine&apos;s last {n} runs ({before:.4g} {unit}), which themselves swing ±{swing:.1f} %, where ±{allowed:.0f} % is allowed (±{limit:.0f} % with its own spread)</source>
        <translation>与本机最近 {n} 次运行（{before:.4g} {unit}）相差 {off:+.1f} %，且这些运行本身波动 ±{swing:.1f} %，而允许范围为 ±{allowed:.0f} %（计入自身离散度时为 ±{limit:.0f} %）</translation>
    </message>
    <message>
        <source>it lies {off:+.1f} % from this machine&apos;s last {n} runs ({before:.4g} {unit}), where ±{allowed:.0f} % is allowed (±{limit:.0f} % with its own spread)</source>
        <translation>与本机最近 {n} 次运行（{before:.4g} {unit}）相差 {off:+.1f} %，而允许范围为 ±{allowed:.0f} %（计入自身离散度时为 ±{limit:.0f} %）</translation>
    </message>
    <message>
        <source>it lies {off:+.1f} % from this machine&apos;s last {n} run ({before:.4g} {unit}), where ±{allowed:.0f} % is allowed (±{limit:.0f} % with its own spread)</source>
        <translation>与本机最近 {n} 次运行（{before:.4g} {unit}）相差 {off:+.1f} %，而允许范围为 ±{allowed:.0f} %（计入自身离散度时为 ±{limit:.0f} %）</translation>
    </message>
    <message>
        <source>{first} and {second} are unstable</source>
        <translation>{first} 和 {second} 不稳定</translation>
    </message>
    <message>
        <source>{figure} is unstable</source>
        <translation>{figure} 不稳定</translation>
    </message>
    <message>
        <source>its pairs spread {spread}, more than ±{limit:.0f} %</source>
        <translation>样本对离散度为 {spread}，超过 ±{limit:.0f} %</translation>
    </message>
</context>
<context>
    <name>ProbeTab</name>
    <message>
        <source>Back to live</source>
        <translation>返回实时</translation>
    </message>
    <message>
        <source>No run yet: press Run to measure this machine.</source>
        <translation>尚未运行：点击“运行”以测量本机。</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <source>Running the {suite} suite…</source>
        <translation>正在运行 {suite} 测试套件…</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>No live metrics: {error}</source>
        <translation>无实时指标：{error}</translation>
    </message>
    <message>
        <source>Live, sampled {hz} times a second</source>
        <translation>实时，每秒采样 {hz} 次</translation>
    </message>
    <message>
        <source>The run of {when} has no recorded series.</source>
        <translation>{when} 的运行没有记录数据序列。</translation>
    </message>
    <message>
        <source>Recorded during the run of {when}</source>
        <translation>记录于 {when} 的运行期间</translation>
    </message>
    <message>
        <source>Reading this machine&apos;s inventory…</source>
        <translation>正在读取本机硬件清单…</translation>
    </message>
    <message>
        <source>The inventory could not be read: {error}</source>
        <translation>无法读取硬件清单：{error}</translation>
    </message>
    <message>
        <source>Not saved in the history: {error}</source>
        <translation>未保存到历史记录：{error}</translation>
    </message>
    <message>
        <source>Finished in {seconds:.0f} s: {counts}.</source>
        <translation>用时 {seconds:.0f} s 完成：{counts}。</translation>
    </message>
    <message>
        <source>The run failed.</source>
        <translation>运行失败。</translation>
    </message>
    <message>
        <source>The run failed: {error}</source>
        <translation>运行失败：{error}</translation>
    </message>
    <message>
        <source>Run cancelled: the results so far are shown, without verdicts.</source>
        <translation>运行已取消：显示目前为止的结果，不含结论。</translation>
    </message>
    <message>
        <source>Run cancelled.</source>
        <translation>运行已取消。</translation>
    </message>
    <message>
        <source>Probe run cancelled</source>
        <translation>检测运行已取消</translation>
    </message>
    <message>
        <source>&lt;b&gt;{suite} suite&lt;/b&gt; on {host}, {when}, {seconds:.0f} s</source>
        <translation>&lt;b&gt;{suite} 测试套件&lt;/b&gt;，{host}，{when}，{seconds:.0f} s</translation>
    </message>
</context>
<context>
    <name>ProbeVerdicts</name>
    <message>
        <source>no NVIDIA GPU found by NVML</source>
        <translation>NVML 未找到 NVIDIA GPU</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>No NVIDIA GPU: {why}</source>
        <translation>没有 NVIDIA GPU：{why}</translation>
    </message>
    <message>
        <source>nothing to compare</source>
        <translation>无可比较的对象</translation>
    </message>
    <message>
        <source>run the probe again when the machine is idle (close other programs and jobs)</source>
        <translation>请在机器空闲时重新运行检测（关闭其他程序和任务）</translation>
    </message>
    <message>
        <source>this machine&apos;s speed changes between runs, as a shared or virtual machine&apos;s can: judge a part on a machine no one else uses, or run the probe several times and compare the runs</source>
        <translation>这台机器的速度在多次运行之间有变化，共享机器或虚拟机可能会这样：请在无人共用的机器上评判配件，或多次运行检测并比较结果</translation>
    </message>
    <message>
        <source>{measured:.4g} {unit}, {percent:.0f} % of the {expected:.4g} {unit} a healthy part measures</source>
        <translation>{measured:.4g} {unit}，为正常配件实测值 {expected:.4g} {unit} 的 {percent:.0f} %</translation>
    </message>
    <message>
        <source>pass at {pass_ratio:.0%}, fail below {fail_ratio:.0%} of the reference ({source})</source>
        <translation>达到参考值的 {pass_ratio:.0%} 即通过，低于 {fail_ratio:.0%} 则失败（{source}）</translation>
    </message>
    <message>
        <source>no measured reference for {part} in {file}</source>
        <translation>{file} 中没有 {part} 的实测参考值</translation>
    </message>
    <message>
        <source>no measured reference for this part in {file}</source>
        <translation>{file} 中没有此配件的实测参考值</translation>
    </message>
    <message>
        <source>no figure</source>
        <translation>无数值</translation>
    </message>
    <message>
        <source>not judged: {figure} is unstable, {why}</source>
        <translation>未评判：{figure} 不稳定，{why}</translation>
    </message>
    <message>
        <source>judged only when the middle half of the samples lies within ±{stable:.0f} % of the median, others take at most {busy:.0f} % of the CPUs, and the figure lies within ±{repeat:.0f} % of this machine&apos;s earlier runs</source>
        <translation>仅在以下条件均满足时评判：中间一半样本落在中位数的 ±{stable:.0f} % 以内，其他进程最多占用 {busy:.0f} % 的 CPU，且该数值与本机此前运行结果相差在 ±{repeat:.0f} % 以内</translation>
    </message>
    <message>
        <source>the link runs below its width or generation under load: reseat the card, use a CPU-attached x16 slot, check the BIOS PCIe setting</source>
        <translation>负载下链路的宽度或代数低于其最高规格：请重新插好显卡，使用 CPU 直连的 x16 插槽，并检查 BIOS 中的 PCIe 设置</translation>
    </message>
    <message>
        <source>Host to device (pinned)</source>
        <translation>主机到设备（锁页内存）</translation>
    </message>
    <message>
        <source>check clocks and power limit (nvidia-smi -q -d CLOCK,POWER) and the throttle graph</source>
        <translation>检查频率和功耗限制（nvidia-smi -q -d CLOCK,POWER）以及降频曲线图</translation>
    </message>
    <message>
        <source>Matmul {dtype}</source>
        <translation>矩阵乘法 {dtype}</translation>
    </message>
    <message>
        <source>check the memory clock and ECC state; a lower figure can mean a faulty or mis-clocked part</source>
        <translation>检查显存频率和 ECC 状态；数值偏低可能意味着配件有故障或频率设置不当</translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation>内存带宽</translation>
    </message>
    <message>
        <source>{message}; unstable ({why}): run again to confirm</source>
        <translation>{message}；数值不稳定（{why}）：请重新运行以确认</translation>
    </message>
    <message>
        <source>Host to device</source>
        <translation>主机到设备</translation>
    </message>
    <message>
        <source>{value:.3g} GB/s on a {link} link, good is at least {good:g} GB/s</source>
        <translation>{link} 链路上为 {value:.3g} GB/s，正常应至少达到 {good:g} GB/s</translation>
    </message>
    <message>
        <source>at least {good:g} GB/s on {link}</source>
        <translation>{link} 上至少 {good:g} GB/s</translation>
    </message>
    <message>
        <source>not judged: which NVIDIA GPU this is is unknown ({why})</source>
        <translation>未评判：无法确定这是哪块 NVIDIA GPU（{why}）</translation>
    </message>
    <message>
        <source>Uncorrectable ECC errors</source>
        <translation>不可纠正的 ECC 错误</translation>
    </message>
    <message>
        <source>{n} uncorrectable ECC errors since the driver loaded</source>
        <translation>驱动加载以来出现 {n} 个不可纠正的 ECC 错误</translation>
    </message>
    <message>
        <source>zero</source>
        <translation>零</translation>
    </message>
    <message>
        <source>the GPU&apos;s memory is failing: ask the vendor for a replacement</source>
        <translation>GPU 显存出现故障：请联系厂商更换</translation>
    </message>
    <message>
        <source>Retired memory pages</source>
        <translation>已退役的显存页</translation>
    </message>
    <message>
        <source>{n} pages retired</source>
        <translation>已退役 {n} 个页</translation>
    </message>
    <message>
        <source>warn at {warn}, fail at {fail}</source>
        <translation>达到 {warn} 个时警告，达到 {fail} 个时失败</translation>
    </message>
    <message>
        <source>the GPU&apos;s memory is wearing out: plan a replacement</source>
        <translation>GPU 显存正在老化：请计划更换</translation>
    </message>
    <message>
        <source>Memory repair</source>
        <translation>显存修复</translation>
    </message>
    <message>
        <source>row remapping failed</source>
        <translation>行重映射失败</translation>
    </message>
    <message>
        <source>a page retirement or row remap is pending</source>
        <translation>有待完成的页退役或行重映射</translation>
    </message>
    <message>
        <source>no pending retirement (fail), no failed row remap (fail), no pending remap (flagged)</source>
        <translation>无待完成的页退役（否则失败），无失败的行重映射（否则失败），无待完成的行重映射（否则标记）</translation>
    </message>
    <message>
        <source>reset the GPU or reboot to apply the pending repair; a failed remap needs a replacement</source>
        <translation>重置 GPU 或重启以应用待完成的修复；行重映射失败则需要更换显卡</translation>
    </message>
    <message>
        <source>the link stays below its maximum under load: reseat the card, move it to a CPU-attached x16 slot, check riser cables and the BIOS PCIe generation setting</source>
        <translation>负载下链路仍低于其最高规格：请重新插好显卡，将其移到 CPU 直连的 x16 插槽，并检查显卡延长线以及 BIOS 中的 PCIe 代数设置</translation>
    </message>
    <message>
        <source>a link below its maximum at idle is normal power saving; if the host-to-device figure is low too, reseat the card or move it to a full x16 slot</source>
        <translation>空闲时链路低于最高规格属于正常节能；如果主机到设备的数值也偏低，请重新插好显卡或将其移到完整的 x16 插槽</translation>
    </message>
    <message>
        <source>PCIe {gen}.0 x{width} of {max_gen}.0 x{max_width} under load</source>
        <translation>负载下为 PCIe {gen}.0 x{width}（最高 {max_gen}.0 x{max_width}）</translation>
    </message>
    <message>
        <source>PCIe {gen}.0 x{width} of {max_gen}.0 x{max_width}</source>
        <translation>PCIe {gen}.0 x{width}（最高 {max_gen}.0 x{max_width}）</translation>
    </message>
    <message>
        <source>PCIe {gen}.0 x{width} of {max_gen}.0 x{max_width} (read when the probe started, idle)</source>
        <translation>PCIe {gen}.0 x{width}（最高 {max_gen}.0 x{max_width}，在检测开始时的空闲状态下读取）</translation>
    </message>
    <message>
        <source>PCIe link</source>
        <translation>PCIe 链路</translation>
    </message>
    <message>
        <source>the maximum generation and width under load</source>
        <translation>负载下达到最高代数和宽度</translation>
    </message>
    <message>
        <source>Clock slowdown during the run</source>
        <translation>运行期间的降频</translation>
    </message>
    <message>
        <source>seen: {events}</source>
        <translation>出现：{events}</translation>
    </message>
    <message>
        <source>no hardware or thermal slowdown while sampled</source>
        <translation>采样期间未出现硬件或过热降频</translation>
    </message>
    <message>
        <source>none of {events}</source>
        <translation>未出现 {events} 中的任何一项</translation>
    </message>
    <message>
        <source>check cooling, fans and the power supply</source>
        <translation>检查散热、风扇和电源</translation>
    </message>
    <message>
        <source>Temperature under the slowdown limit</source>
        <translation>温度低于降频阈值</translation>
    </message>
    <message>
        <source>hottest {hottest:.0f} °C, slowdown at {limit:.0f} °C</source>
        <translation>最高 {hottest:.0f} °C，降频阈值 {limit:.0f} °C</translation>
    </message>
    <message>
        <source>below the slowdown temperature</source>
        <translation>低于降频温度</translation>
    </message>
    <message>
        <source>improve airflow or spacing between cards</source>
        <translation>改善风道或加大显卡间距</translation>
    </message>
    <message>
        <source>close other programs using memory, or run the quick suite; check RAM and GPU memory</source>
        <translation>关闭其他占用内存的程序，或运行快速测试套件；检查内存和显存</translation>
    </message>
    <message>
        <source>the machine may be throttling or busy; watch the live graphs and run again, or allow the benchmark longer (--bench-timeout)</source>
        <translation>机器可能正在降频或繁忙；观察实时曲线图后重新运行，或延长基准测试的时限（--bench-timeout）</translation>
    </message>
    <message>
        <source>a crash in torch or the driver: check the driver and torch versions (gpuconfig guide)</source>
        <translation>torch 或驱动崩溃：检查驱动和 torch 的版本（gpuconfig guide）</translation>
    </message>
    <message>
        <source>run again; if it repeats, report it with the exported JSON</source>
        <translation>重新运行；如果问题重复出现，请附上导出的 JSON 进行报告</translation>
    </message>
    <message>
        <source>Benchmark ran</source>
        <translation>基准测试运行</translation>
    </message>
    <message>
        <source>{benchmark} failed: {reason}</source>
        <translation>{benchmark} 失败：{reason}</translation>
    </message>
    <message>
        <source>every benchmark completes</source>
        <translation>所有基准测试均完成</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Disk sequential read</source>
        <translation>磁盘顺序读取</translation>
    </message>
    <message>
        <source>disks</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>DataLoader {variant}</source>
        <translation>DataLoader {variant}</translation>
    </message>
    <message>
        <source>fastest with {variant}: {value:.4g} {unit} ({others})</source>
        <translation>{variant} 时最快：{value:.4g} {unit}（{others}）</translation>
    </message>
    <message>
        <source>fastest with the default: {value:.4g} {unit} ({others})</source>
        <translation>默认设置时最快：{value:.4g} {unit}（{others}）</translation>
    </message>
    <message>
        <source>DataLoader workers</source>
        <translation>DataLoader 工作进程数</translation>
    </message>
    <message>
        <source>measured on this machine</source>
        <translation>在本机实测</translation>
    </message>
    <message>
        <source>AMP on {model}</source>
        <translation>{model} 上的 AMP</translation>
    </message>
    <message>
        <source>activation checkpointing on {model}</source>
        <translation>{model} 上的激活检查点</translation>
    </message>
    <message>
        <source>a step that recomputes its forward pass measured {ratio:.2f}x the plain step&apos;s throughput</source>
        <translation>需要重算前向传播的单步，实测吞吐量却是普通单步的 {ratio:.2f}x</translation>
    </message>
    <message>
        <source>measured on this machine against the same step without it, in interleaved pairs</source>
        <translation>在本机与不使用该技术的相同单步交替成对实测对比</translation>
    </message>
    <message>
        <source>measured on this machine against the same step without it, one after the other (a report without pairs)</source>
        <translation>在本机与不使用该技术的相同单步先后实测对比（报告中没有成对数据）</translation>
    </message>
    <message>
        <source>{ratio:.2f}x the throughput of the plain step (±{spread:.0f} % over {pairs} pairs), {memory:.2f}x its peak tensor memory</source>
        <translation>吞吐量为普通单步的 {ratio:.2f}x（{pairs} 对测量，±{spread:.0f} %），张量内存峰值为其 {memory:.2f}x</translation>
    </message>
    <message>
        <source>{ratio:.2f}x the throughput of the plain step (±{spread:.0f} % over {pairs} pairs)</source>
        <translation>吞吐量为普通单步的 {ratio:.2f}x（{pairs} 对测量，±{spread:.0f} %）</translation>
    </message>
    <message>
        <source>{ratio:.2f}x the throughput of the plain step, {memory:.2f}x its peak tensor memory</source>
        <translation>吞吐量为普通单步的 {ratio:.2f}x，张量内存峰值为其 {memory:.2f}x</translation>
    </message>
    <message>
        <source>{ratio:.2f}x the throughput of the plain step</source>
        <translation>吞吐量为普通单步的 {ratio:.2f}x</translation>
    </message>
    <message>
        <source>PyTorch is installed but does not work: {reason}</source>
        <translation>已安装 PyTorch，但无法正常工作：{reason}</translation>
    </message>
    <message>
        <source>reinstall torch with the wheel for this machine&apos;s driver (gpuconfig guide --from-probe)</source>
        <translation>使用适配本机驱动的 wheel 包重新安装 torch（gpuconfig guide --from-probe）</translation>
    </message>
    <message>
        <source>PyTorch unavailable: {reason}</source>
        <translation>PyTorch 不可用：{reason}</translation>
    </message>
    <message>
        <source>check that the chosen Python has a working torch (gpuconfig guide --from-probe), then probe again</source>
        <translation>确认所选 Python 中有可正常工作的 torch（gpuconfig guide --from-probe），然后重新检测</translation>
    </message>
    <message>
        <source>install PyTorch in this Python, or choose a Python that has it (--python PATH)</source>
        <translation>在此 Python 中安装 PyTorch，或选择已安装 PyTorch 的 Python（--python PATH）</translation>
    </message>
    <message>
        <source>choose a Python that exists (--python PATH, the Probe tab&apos;s Add..., or GPUCONFIG_TORCH_PYTHON)</source>
        <translation>选择一个实际存在的 Python（--python PATH、“检测”标签页中的“添加...”，或 GPUCONFIG_TORCH_PYTHON）</translation>
    </message>
    <message>
        <source>run the probe again to measure</source>
        <translation>重新运行检测以进行测量</translation>
    </message>
    <message>
        <source>check that this Python starts and imports torch (python -c &apos;import torch&apos;), or allow it longer (--start-timeout)</source>
        <translation>确认此 Python 能启动并导入 torch（python -c &apos;import torch&apos;），或延长其启动时限（--start-timeout）</translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <source>the benchmarks need a working torch in the chosen Python</source>
        <translation>基准测试需要所选 Python 中有可正常工作的 torch</translation>
    </message>
    <message>
        <source>torch {version}, built for CUDA {cuda}</source>
        <translation>torch {version}，基于 CUDA {cuda} 构建</translation>
    </message>
    <message>
        <source>torch {version}, a CPU-only build</source>
        <translation>torch {version}，仅 CPU 版本</translation>
    </message>
    <message>
        <source>what is installed</source>
        <translation>已安装的版本</translation>
    </message>
    <message>
        <source>PyTorch sees the GPU</source>
        <translation>PyTorch 能识别 GPU</translation>
    </message>
    <message>
        <source>This machine has an NVIDIA GPU but the chosen torch is a CPU-only build</source>
        <translation>本机有 NVIDIA GPU，但所选 torch 是仅 CPU 版本</translation>
    </message>
    <message>
        <source>a CUDA build is needed to use the GPU</source>
        <translation>使用 GPU 需要 CUDA 版本的 torch</translation>
    </message>
    <message>
        <source>install a CUDA build of torch (gpuconfig guide --from-probe gives the command)</source>
        <translation>安装 CUDA 版本的 torch（gpuconfig guide --from-probe 会给出命令）</translation>
    </message>
    <message>
        <source>Driver supports torch&apos;s CUDA</source>
        <translation>驱动支持 torch 的 CUDA 版本</translation>
    </message>
    <message>
        <source>the driver supports CUDA {driver}, torch was built for CUDA {cuda}</source>
        <translation>驱动支持 CUDA {driver}，而 torch 是基于 CUDA {cuda} 构建的</translation>
    </message>
    <message>
        <source>driver&apos;s CUDA version &gt;= torch&apos;s CUDA version</source>
        <translation>驱动的 CUDA 版本 &gt;= torch 的 CUDA 版本</translation>
    </message>
    <message>
        <source>update the NVIDIA driver, or install a torch wheel built for an older CUDA</source>
        <translation>更新 NVIDIA 驱动，或安装基于较旧 CUDA 构建的 torch wheel 包</translation>
    </message>
    <message>
        <source>GPU architecture in the torch build</source>
        <translation>torch 构建中包含该 GPU 架构</translation>
    </message>
    <message>
        <source>compute capability {capability} is not in this torch&apos;s architecture list ({archs})</source>
        <translation>计算能力 {capability} 不在此 torch 的架构列表（{archs}）中</translation>
    </message>
    <message>
        <source>the GPU&apos;s sm_XY (or a compatible PTX) must be compiled in</source>
        <translation>必须编译进该 GPU 的 sm_XY（或兼容的 PTX）</translation>
    </message>
    <message>
        <source>install a torch wheel built for a CUDA version that supports this GPU</source>
        <translation>安装基于支持此 GPU 的 CUDA 版本构建的 torch wheel 包</translation>
    </message>
</context>
<context>
    <name>ProblemList</name>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Every compatibility and power rule passes.</source>
        <translation>所有兼容性与功耗规则均通过。</translation>
    </message>
    <message>
        <source>Fix:</source>
        <translation>解决：</translation>
    </message>
    <message>
        <source>Source: {source}</source>
        <translation>来源：{source}</translation>
    </message>
</context>
<context>
    <name>RecommendForm</name>
    <message>
        <source>Workload tab:</source>
        <translation>“工作负载”标签页：</translation>
    </message>
    <message>
        <source>Set here:</source>
        <translation>在此设置：</translation>
    </message>
    <message>
        <source>Every field of the workload: optimizer, accumulation, checkpointing, attention, LoRA, …</source>
        <translation>工作负载的全部字段：优化器、梯度累积、梯度检查点、注意力、LoRA……</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>The most the machine may cost; empty: no limit</source>
        <translation>整机的最高价格；留空表示不限</translation>
    </message>
    <message>
        <source>Compare renting</source>
        <translation>比较租用</translation>
    </message>
    <message>
        <source>Tower</source>
        <translation>塔式</translation>
    </message>
    <message>
        <source>Rack</source>
        <translation>机架式</translation>
    </message>
    <message>
        <source>Laptop with eGPU</source>
        <translation>笔记本 + 外接显卡</translation>
    </message>
    <message>
        <source>The laptop&apos;s port, for a laptop with an eGPU</source>
        <translation>笔记本电脑的接口（适用于笔记本 + 外接显卡）</translation>
    </message>
    <message>
        <source> GPUs</source>
        <translation> 块 GPU</translation>
    </message>
    <message>
        <source>The most GPUs one machine may hold</source>
        <translation>单台机器最多可装的 GPU 数量</translation>
    </message>
    <message>
        <source>samples, not given</source>
        <translation>样本数，未填写</translation>
    </message>
    <message>
        <source>Samples in the dataset: each build&apos;s and rental&apos;s job time and cost, and when buying pays off</source>
        <translation>数据集中的样本数：用于计算各装机方案与租用方案的任务耗时和成本，以及购买何时回本</translation>
    </message>
    <message>
        <source>Passes over the dataset: the job is samples × epochs</source>
        <translation>遍历数据集的轮数：任务量 = 样本数 × 轮数</translation>
    </message>
    <message>
        <source>not counted</source>
        <translation>不计入</translation>
    </message>
    <message>
        <source>The price of a kWh, in the currency chosen: a bought build&apos;s running cost per job</source>
        <translation>每 kWh 电价（以所选货币计）：用于计算所购装机方案每次任务的运行成本</translation>
    </message>
    <message>
        <source>Only as asked (no changes)</source>
        <translation>仅按原设置（不做调整）</translation>
    </message>
    <message>
        <source>Only machines that hold the workload as asked (or in smaller micro-batches with gradient accumulation); no checkpointing, 8-bit optimizer or sharding the plan would add</source>
        <translation>仅限能按原设置（或以更小的微批配合梯度累积）容纳该工作负载的机器；方案不会额外添加梯度检查点、8 位优化器或分片</translation>
    </message>
    <message>
        <source>Allow changes to what is trained (LoRA, QLoRA, quantized weights)</source>
        <translation>允许改变训练内容（LoRA、QLoRA、量化权重）</translation>
    </message>
    <message>
        <source>Also try changes that train fewer weights or compute with quantized ones: the result differs</source>
        <translation>同时尝试训练更少权重或使用量化权重计算的调整：结果会有所不同</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机型</translation>
    </message>
    <message>
        <source>Up to</source>
        <translation>最多</translation>
    </message>
    <message>
        <source>Circuit</source>
        <translation>电路</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>接口</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <source>Electricity</source>
        <translation>电价</translation>
    </message>
    <message>
        <source>{currency} per kWh</source>
        <translation>{currency}/kWh</translation>
    </message>
    <message>
        <source>not counted (e.g. {price:g})</source>
        <translation>不计入（例如 {price:g}）</translation>
    </message>
    <message>
        <source>Example: {source}</source>
        <translation>示例：{source}</translation>
    </message>
    <message>
        <source>nothing answered there yet</source>
        <translation>那里尚未填写任何内容</translation>
    </message>
    <message>
        <source>Fit headroom: {percent}</source>
        <translation>显存余量：{percent}</translation>
    </message>
    <message>
        <source>Each build holds its peak within the card&apos;s memory less {percent}: {why}</source>
        <translation>每个装机方案的峰值须控制在显卡显存减去 {percent} 之内：{why}</translation>
    </message>
    <message>
        <source>{field}: expected a number, got {text}</source>
        <translation>{field}：应为数字，实际为 {text}</translation>
    </message>
</context>
<context>
    <name>RecommendPanel</name>
    <message>
        <source>Recommend a machine</source>
        <translation>推荐整机</translation>
    </message>
    <message>
        <source>Recommend</source>
        <translation>推荐</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Outdated: planning again was cancelled; Recommend to try again.</source>
        <translation>已过时：重新规划已取消；点击“推荐”重试。</translation>
    </message>
    <message>
        <source>Tracing {model}: {what}</source>
        <translation>正在追踪 {model}：{what}</translation>
    </message>
    <message>
        <source>Tracing {model} with {change} ({n} of {total})</source>
        <translation>正在以 {change} 追踪 {model}（第 {n} 个，共 {total} 个）</translation>
    </message>
    <message>
        <source>Planning…</source>
        <translation>正在规划…</translation>
    </message>
    <message>
        <source>Outdated: these results are for the form as it was; planning again…</source>
        <translation>已过时：这些结果对应的是修改前的表单；正在重新规划…</translation>
    </message>
    <message>
        <source>Tracing {model}…</source>
        <translation>正在追踪 {model}…</translation>
    </message>
    <message>
        <source>Planned for {model}.</source>
        <translation>已为 {model} 完成规划。</translation>
    </message>
    <message>
        <source>Outdated: the form changed and needs a new trace; Recommend to plan for it.</source>
        <translation>已过时：表单已更改，需要重新追踪；点击“推荐”为其规划。</translation>
    </message>
    <message>
        <source>Outdated: not planned again, the form cannot be used as it is.</source>
        <translation>已过时：未重新规划，当前表单内容无法使用。</translation>
    </message>
</context>
<context>
    <name>RepairedDialog</name>
    <message>
        <source>prices you set</source>
        <translation>条自设价格</translation>
    </message>
    <message>
        <source>imported price lists</source>
        <translation>份导入的价格表</translation>
    </message>
    <message>
        <source>imported prices</source>
        <translation>条导入的价格</translation>
    </message>
    <message>
        <source>saved builds</source>
        <translation>个已保存的装机方案</translation>
    </message>
    <message>
        <source>settings</source>
        <translation>项设置</translation>
    </message>
    <message>
        <source>The database was rebuilt. The damaged file is kept as:
{backup}</source>
        <translation>数据库已重建。损坏的文件已保留为：
{backup}</translation>
    </message>
    <message>
        <source>Copied over: {kept}</source>
        <translation>已复制：{kept}</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Not kept:</source>
        <translation>未保留：</translation>
    </message>
</context>
<context>
    <name>ResultsTable</name>
    <message>
        <source>Benchmark</source>
        <translation>基准测试</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>离散度</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>{status}: {reason}</source>
        <translation>{status}：{reason}</translation>
    </message>
    <message>
        <source>unstable, not judged: {why}</source>
        <translation>不稳定，未评判：{why}</translation>
    </message>
    <message>
        <source>±{spread} % ({samples})</source>
        <translation>±{spread} %（{samples}）</translation>
    </message>
    <message>
        <source>half the interquartile range of the samples, and how many</source>
        <translation>样本四分位距的一半，以及样本数</translation>
    </message>
    <message>
        <source>Matrix multiply</source>
        <translation>矩阵乘法</translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <source>Host to device copy</source>
        <translation>主机到设备复制</translation>
    </message>
    <message>
        <source>Device to host copy</source>
        <translation>设备到主机复制</translation>
    </message>
    <message>
        <source>CNN training step</source>
        <translation>CNN 训练步</translation>
    </message>
    <message>
        <source>Transformer training step</source>
        <translation>Transformer 训练步</translation>
    </message>
    <message>
        <source>Training step fed from host memory</source>
        <translation>从主机内存取数据的训练步</translation>
    </message>
    <message>
        <source>DataLoader</source>
        <translation>DataLoader</translation>
    </message>
    <message>
        <source>Disk sequential read</source>
        <translation>磁盘顺序读取</translation>
    </message>
    <message>
        <source>All-reduce</source>
        <translation>All-reduce</translation>
    </message>
    <message>
        <source>AMP</source>
        <translation>AMP</translation>
    </message>
    <message>
        <source>checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <source>AMP + checkpointing</source>
        <translation>AMP + 梯度检查点</translation>
    </message>
    <message>
        <source>batch on the device</source>
        <translation>批数据在设备上</translation>
    </message>
    <message>
        <source>batch from the host</source>
        <translation>批数据来自主机</translation>
    </message>
    <message>
        <source>pinned memory</source>
        <translation>锁页内存</translation>
    </message>
    <message>
        <source>pageable memory</source>
        <translation>可分页内存</translation>
    </message>
    <message>
        <source>{benchmark}, {variant}</source>
        <translation>{benchmark}，{variant}</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
</context>
<context>
    <name>RunControls</name>
    <message>
        <source>Quick suite ({seconds:.0f} s at most)</source>
        <translation>快速测试（最多 {seconds:.0f} s）</translation>
    </message>
    <message>
        <source>Full suite ({minutes:.0f} min at most)</source>
        <translation>完整测试（最多 {minutes:.0f} min）</translation>
    </message>
    <message>
        <source>Chosen Python</source>
        <translation>自动选择的 Python</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Run the benchmarks in another Python that has PyTorch</source>
        <translation>在另一个已安装 PyTorch 的 Python 中运行基准测试</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source> Hz</source>
        <translation> Hz</translation>
    </message>
    <message>
        <source>How often the live metrics are sampled</source>
        <translation>实时指标的采样频率</translation>
    </message>
    <message>
        <source>in</source>
        <translation>运行于</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Chosen: {python}</source>
        <translation>自动选择：{python}</translation>
    </message>
    <message>
        <source>The Python the estimator runs in too: the one GPUCONFIG_TORCH_PYTHON names, else the first Python added with Add… that has PyTorch, else gpuconfig&apos;s own when it has PyTorch, else the first found with PyTorch</source>
        <translation>估算器也在此 Python 中运行：优先使用 GPUCONFIG_TORCH_PYTHON 指定的 Python，其次是通过“添加…”添加的第一个已安装 PyTorch 的 Python，再次是已安装 PyTorch 时 gpuconfig 自身的 Python，最后是找到的第一个已安装 PyTorch 的 Python</translation>
    </message>
    <message>
        <source> (torch {version})</source>
        <translation> (torch {version})</translation>
    </message>
    <message>
        <source>Choose a Python interpreter that has PyTorch</source>
        <translation>选择已安装 PyTorch 的 Python 解释器</translation>
    </message>
</context>
<context>
    <name>TechniqueTable</name>
    <message>
        <source>Change</source>
        <translation>改动</translation>
    </message>
    <message>
        <source>Peak per device</source>
        <translation>每设备峰值</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>代价</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>Time vs. now</source>
        <translation>相对当前用时</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>LoRA, rank {rank}</source>
        <translation>LoRA，秩 {rank}</translation>
    </message>
    <message>
        <source>QLoRA rank {rank} (4-bit base)</source>
        <translation>QLoRA，秩 {rank}（4-bit 基座）</translation>
    </message>
    <message>
        <source>task {task}</source>
        <translation>任务 {task}</translation>
    </message>
    <message>
        <source>INT8 weights</source>
        <translation>INT8 权重</translation>
    </message>
    <message>
        <source>INT4 weights</source>
        <translation>INT4 权重</translation>
    </message>
    <message>
        <source>8-bit AdamW</source>
        <translation>8-bit AdamW</translation>
    </message>
    <message>
        <source>Adafactor</source>
        <translation>Adafactor</translation>
    </message>
    <message>
        <source>activation checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <source>optimizer on the CPU (ZeRO-Offload)</source>
        <translation>优化器卸载到 CPU（ZeRO-Offload）</translation>
    </message>
    <message>
        <source>{strategy} over {n} GPUs</source>
        <translation>{strategy}，{n} 块 GPU</translation>
    </message>
    <message>
        <source>micro-batch {batch} × {accum} accumulation steps</source>
        <translation>微批 {batch} × {accum} 步梯度累积</translation>
    </message>
    <message>
        <source>needs more GPUs</source>
        <translation>需要更多 GPU</translation>
    </message>
    <message>
        <source>changes what is trained</source>
        <translation>改变训练内容</translation>
    </message>
    <message>
        <source>changes the output</source>
        <translation>改变输出</translation>
    </message>
    <message>
        <source>free</source>
        <translation>无代价</translation>
    </message>
    <message>
        <source>trains adapters only</source>
        <translation>仅训练适配器</translation>
    </message>
    <message>
        <source>quantized weights</source>
        <translation>量化权重</translation>
    </message>
    <message>
        <source>time per sample, no communication</source>
        <translation>按每样本计时，不含通信</translation>
    </message>
    <message>
        <source>time per sample</source>
        <translation>按每样本计时</translation>
    </message>
    <message>
        <source>the CPU&apos;s optimizer step not counted</source>
        <translation>未计入 CPU 上的优化器步骤</translation>
    </message>
    <message>
        <source>As entered</source>
        <translation>当前输入</translation>
    </message>
    <message>
        <source>The workload in the form</source>
        <translation>表单中的工作负载</translation>
    </message>
    <message>
        <source> (traced)</source>
        <translation>（已追踪）</translation>
    </message>
    <message>
        <source>Only low-rank adapters are trained: the model you get differs from a full fine-tune</source>
        <translation>仅训练低秩适配器：得到的模型与全量微调的不同</translation>
    </message>
    <message>
        <source>Weights stored in fewer bits: outputs change slightly</source>
        <translation>权重以更少的位数存储：输出会略有变化</translation>
    </message>
    <message>
        <source>Each GPU runs the micro-batch, so a step covers more samples; time is per sample and leaves out the time spent communicating between GPUs</source>
        <translation>每块 GPU 各运行一个微批，因此每步覆盖更多样本；时间按每样本计算，未计入 GPU 之间的通信时间</translation>
    </message>
    <message>
        <source>Each GPU runs the micro-batch, so a step covers more samples; time is per sample, with the sharding&apos;s traffic between GPUs over the card&apos;s link</source>
        <translation>每块 GPU 各运行一个微批，因此每步覆盖更多样本；时间按每样本计算，已计入分片在 GPU 之间经显卡链路传输的流量</translation>
    </message>
    <message>
        <source>Keeps the result and needs nothing bought: only the time changes</source>
        <translation>结果不变，也无需购买任何硬件：只有时间会变化</translation>
    </message>
    <message>
        <source>Needs GPUs beyond the one chosen: a purchase or a rental</source>
        <translation>需要所选 GPU 之外的更多 GPU：需购买或租用</translation>
    </message>
    <message>
        <source>Trains fewer weights or on quantized ones: the model you get differs, not only the time</source>
        <translation>训练更少的权重或在量化权重上训练：得到的模型会不同，而不只是时间变化</translation>
    </message>
    <message>
        <source>Computes with quantized weights: the outputs change slightly</source>
        <translation>使用量化权重计算：输出会略有变化</translation>
    </message>
</context>
<context>
    <name>TechniquesPanel</name>
    <message>
        <source>Compare techniques</source>
        <translation>比较优化技术</translation>
    </message>
    <message>
        <source>Trace activation checkpointing, 8-bit AdamW, LoRA, QLoRA or quantized weights for this workload</source>
        <translation>针对此工作负载追踪激活检查点、8 位 AdamW、LoRA、QLoRA 或量化权重的效果</translation>
    </message>
    <message>
        <source>Apply to the form</source>
        <translation>应用到表单</translation>
    </message>
    <message>
        <source>Fits as entered, with {free} to spare of {usable} usable.</source>
        <translation>按当前输入放得下，可用 {usable}，尚余 {free}。</translation>
    </message>
    <message>
        <source>Other techniques and what they cost:</source>
        <translation>其他技术及其代价：</translation>
    </message>
    <message>
        <source>time per sample ×{factor:.2f}</source>
        <translation>单样本耗时 ×{factor:.2f}</translation>
    </message>
    <message>
        <source>time not estimated</source>
        <translation>未估算耗时</translation>
    </message>
    <message>
        <source>Fits if… {change} ({cost}; {time})</source>
        <translation>若…{change}，则放得下（{cost}；{time}）</translation>
    </message>
    <message>
        <source>No instant change fits; tracing the other techniques…</source>
        <translation>没有可立即生效且放得下的改动；正在追踪其他技术…</translation>
    </message>
    <message>
        <source>None of these changes fits: choose a GPU with more memory, or more GPUs.</source>
        <translation>这些改动都放不下：请选择显存更大的 GPU，或使用更多 GPU。</translation>
    </message>
    <message>
        <source> (tracing more techniques…)</source>
        <translation>（正在追踪更多技术…）</translation>
    </message>
    <message>
        <source>Techniques are compared against a GPU&apos;s memory: choose to run on a GPU.</source>
        <translation>技术比较以 GPU 的显存为准：请选择在 GPU 上运行。</translation>
    </message>
</context>
<context>
    <name>VerdictBanner</name>
    <message>
        <source>Describe the laptop&apos;s port</source>
        <translation>请说明笔记本的接口</translation>
    </message>
    <message>
        <source>Compatible</source>
        <translation>兼容</translation>
    </message>
    <message>
        <source>Works, with warnings</source>
        <translation>可用，但有警告</translation>
    </message>
    <message>
        <source>Will not work</source>
        <translation>无法使用</translation>
    </message>
    <message>
        <source>{port} port</source>
        <translation>{port} 接口</translation>
    </message>
    <message>
        <source>Pass: {ok} · warnings: {warn} · problems: {fail} · not checked: {unknown}</source>
        <translation>通过：{ok} · 警告：{warn} · 问题：{fail} · 未检查：{unknown}</translation>
    </message>
    <message>
        <source>(the catalog lacks a figure, or nothing was measured)</source>
        <translation>（硬件目录缺少数据，或未进行实测）</translation>
    </message>
    <message>
        <source>the laptop as detected</source>
        <translation>按检测到的笔记本</translation>
    </message>
    <message>
        <source>The laptop, enclosure and card work together</source>
        <translation>笔记本、扩展坞和显卡可以配合使用</translation>
    </message>
    <message>
        <source>The laptop, enclosure and card work together, with warnings</source>
        <translation>笔记本、扩展坞和显卡可以配合使用，但有警告</translation>
    </message>
    <message>
        <source>Fits only by using the headroom: {workload} needs {peak}; {card} has {usable}</source>
        <translation>需占用余量才放得下：{workload} 需要 {peak}；{card} 可用 {usable}</translation>
    </message>
    <message>
        <source>Does not fit: {workload} needs {peak}; {card} has {usable}</source>
        <translation>放不下：{workload} 需要 {peak}；{card} 可用 {usable}</translation>
    </message>
    <message>
        <source>{usable} usable ({memory} less {headroom} headroom)</source>
        <translation>{usable}（{memory} 减去 {headroom} 余量）</translation>
    </message>
</context>
<context>
    <name>VerdictsPanel</name>
    <message>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>预期</translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation>比值</translation>
    </message>
    <message>
        <source>Verdicts appear when the run has finished.</source>
        <translation>运行结束后将显示结论。</translation>
    </message>
    <message>
        <source>Threshold: {threshold}{source}</source>
        <translation>阈值：{threshold}{source}</translation>
    </message>
    <message>
        <source>What to do: {advice}</source>
        <translation>建议：{advice}</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>fail</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>info</source>
        <translation>信息</translation>
    </message>
</context>
<context>
    <name>Workload</name>
    <message>
        <source>no measured band for GPUs yet</source>
        <translation>暂无 GPU 的实测误差范围</translation>
    </message>
    <message>
        <source>no measured band yet (benchmarks/estimate_accuracy_cpu.py measures it)</source>
        <translation>暂无实测误差范围（可由 benchmarks/estimate_accuracy_cpu.py 测量）</translation>
    </message>
    <message>
        <source>±{median:.1f} % (held-out median), worst {worst:+.0f} %, from {benchmark} over {cases} cases</source>
        <translation>±{median:.1f} %（留出集中位数），最差 {worst:+.0f} %，来自 {benchmark} 的 {cases} 个用例</translation>
    </message>
    <message>
        <source>{label} (extrapolated past the traced shapes)</source>
        <translation>{label}（由已追踪的形状外推）</translation>
    </message>
    <message>
        <source>micro-batch {batch} with {accum}x gradient accumulation</source>
        <translation>微批 {batch}，{accum} 步梯度累积</translation>
    </message>
    <message>
        <source>{change}, {smaller}</source>
        <translation>{change}，{smaller}</translation>
    </message>
    <message>
        <source>FSDP over {n} GPUs (communication time not counted: no PCIe generation in the catalog)</source>
        <translation>FSDP，{n} 块 GPU（未计入通信时间：硬件目录中没有 PCIe 代数）</translation>
    </message>
    <message>
        <source>FSDP over {n} GPUs (traffic over {link})</source>
        <translation>FSDP，{n} 块 GPU（通信经 {link}）</translation>
    </message>
    <message>
        <source>optimizer on the CPU (ZeRO-Offload) (copies not counted: no PCIe generation in the catalog)</source>
        <translation>优化器卸载到 CPU（ZeRO-Offload）（未计入复制时间：硬件目录中没有 PCIe 代数）</translation>
    </message>
    <message>
        <source>optimizer on the CPU (ZeRO-Offload) (copies over {link}; the CPU&apos;s optimizer step not counted)</source>
        <translation>优化器卸载到 CPU（ZeRO-Offload）（复制经 {link}；未计入 CPU 上的优化器步骤）</translation>
    </message>
    <message>
        <source>activation checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <source>8-bit AdamW</source>
        <translation>8-bit AdamW</translation>
    </message>
    <message>
        <source>LoRA rank {rank}</source>
        <translation>LoRA，秩 {rank}</translation>
    </message>
    <message>
        <source>QLoRA (4-bit base weights)</source>
        <translation>QLoRA（4-bit 基座权重）</translation>
    </message>
    <message>
        <source>INT8 weights</source>
        <translation>INT8 权重</translation>
    </message>
    <message>
        <source>INT4 weights</source>
        <translation>INT4 权重</translation>
    </message>
    <message>
        <source>activation checkpointing + {change}</source>
        <translation>激活检查点 + {change}</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>taken as reached: no share of measured rates has been measured on this kind of device</source>
        <translation>视为全额达到：尚未在此类设备上测得实测速率的可达比例</translation>
    </message>
    <message>
        <source>taken as reached: the catalog&apos;s measured share is out of range</source>
        <translation>视为全额达到：硬件目录中的实测比例超出范围</translation>
    </message>
    <message>
        <source>FLOPs and bytes at the rates {measured}, at {share:.0%} of them ({why})</source>
        <translation>FLOPs 与字节量按实测速率的 {share:.0%} 计算（{why}），速率{measured}</translation>
    </message>
    <message>
        <source>; the share was fitted on another processor ({fitted_on}), and it moves with the host</source>
        <translation>；该比例是在另一款处理器（{fitted_on}）上拟合的，且会随主机而变化</translation>
    </message>
    <message>
        <source>reads at {share:.0%} of the memory bandwidth {measured}; each kernel&apos;s launch {launch}</source>
        <translation>读取按访存带宽的 {share:.0%} 计，带宽{measured}；每个内核的启动耗时：{launch}</translation>
    </message>
    <message>
        <source>reads at {share:.0%} of the memory bandwidth {measured}</source>
        <translation>读取按访存带宽的 {share:.0%} 计，带宽{measured}</translation>
    </message>
    <message>
        <source>generated tokens not priced: no decode calibration (benchmarks/decode_calibration.py writes it)</source>
        <translation>未估算生成 token 的耗时：尚无解码校准数据（由 benchmarks/decode_calibration.py 生成）</translation>
    </message>
    <message>
        <source>no calibrated efficiency yet (benchmarks/time_calibration.py writes catalog/efficiency.toml)</source>
        <translation>尚无校准的效率数据（由 benchmarks/time_calibration.py 写入 catalog/efficiency.toml）</translation>
    </message>
    <message>
        <source>not estimated on the CPU without its measured speed: a CPU&apos;s rates are not in the catalog; run gpuconfig probe --json --output FILE and give --probe-report FILE (the Workload tab: at this machine&apos;s measured speed)</source>
        <translation>没有实测速度时不估算 CPU 上的时间：目录中没有 CPU 的速率；请运行 gpuconfig probe --json --output FILE，再给出 --probe-report FILE（工作负载页：按本机实测速度）</translation>
    </message>
    <message>
        <source>not estimated without a GPU: choose one (--gpu)</source>
        <translation>未选择 GPU 时不估算：请选择一块（--gpu）</translation>
    </message>
    <message>
        <source>{n} GPUs, {strategy}, per device</source>
        <translation>{n} 个 GPU，{strategy}，按每个设备计</translation>
    </message>
    <message>
        <source>asked</source>
        <translation>由用户指定</translation>
    </message>
    <message>
        <source>auto: transformers uses eager, the model class has no SDPA support</source>
        <translation>自动：transformers 使用 eager，该模型类不支持 SDPA</translation>
    </message>
    <message>
        <source>auto: the model calls no attention that was seen</source>
        <translation>自动：追踪中未发现模型调用注意力</translation>
    </message>
    <message>
        <source>PyTorch&apos;s CPU math path (dropout is on)</source>
        <translation>PyTorch 的 CPU math 路径（已启用 dropout）</translation>
    </message>
    <message>
        <source>PyTorch&apos;s CPU flash kernel</source>
        <translation>PyTorch 的 CPU flash 内核</translation>
    </message>
    <message>
        <source>auto: transformers picks sdpa; {why}</source>
        <translation>自动：transformers 选择 sdpa；{why}</translation>
    </message>
    <message>
        <source>auto: {why}</source>
        <translation>自动：{why}</translation>
    </message>
    <message>
        <source>PyTorch on an sm80+ card (no GPU chosen), {dtype}</source>
        <translation>PyTorch 在 sm80+ 显卡上（未选择 GPU），{dtype}</translation>
    </message>
    <message>
        <source>PyTorch picks flash: {sm}, {dtype}, head size {head}</source>
        <translation>PyTorch 选择 flash：{sm}，{dtype}，头维度 {head}</translation>
    </message>
    <message>
        <source>PyTorch&apos;s fused kernels take bf16 from sm80 on, so it takes the math path, which keeps the length x length scores the traced fused kernel does not: choose sdpa_math to trace it</source>
        <translation>PyTorch 的融合内核从 sm80 起才支持 bf16，因此这里会走 math 路径，它会保留长度 × 长度的分数，而追踪时运行的融合内核不保留：请选择 sdpa_math 来追踪这种情况</translation>
    </message>
    <message>
        <source>PyTorch falls back to math: {sm}, {dtype}</source>
        <translation>PyTorch 回退到 math：{sm}，{dtype}</translation>
    </message>
    <message>
        <source>the trace ran a fused kernel, which keeps no length x length scores; math keeps them: choose sdpa_math to trace it</source>
        <translation>追踪时运行的是融合内核，不保留长度 × 长度的分数，而 math 会保留：请选择 sdpa_math 来追踪这种情况</translation>
    </message>
    <message>
        <source>PyTorch falls back to math: {why}, and memory-efficient takes no grouped key/value heads</source>
        <translation>PyTorch 回退到 math：{why}，且显存高效内核不支持分组的键/值头</translation>
    </message>
    <message>
        <source>PyTorch picks memory-efficient: {why}</source>
        <translation>PyTorch 选择显存高效内核：{why}</translation>
    </message>
    <message>
        <source>flash needs sm80+, this GPU is {sm}</source>
        <translation>flash 需要 sm80+，此 GPU 为 {sm}</translation>
    </message>
    <message>
        <source>flash needs fp16 or bf16, the attention computes in fp32</source>
        <translation>flash 需要 fp16 或 bf16，而注意力以 fp32 计算</translation>
    </message>
    <message>
        <source>flash takes no attention mask, and the model passes one</source>
        <translation>flash 不支持注意力掩码，而模型传入了掩码</translation>
    </message>
    <message>
        <source>flash takes a head size of at most 256, not {head}</source>
        <translation>flash 支持的头维度最大为 256，此处为 {head}</translation>
    </message>
    <message>
        <source>flash on {sm} does not train a head size over 192 ({head} here)</source>
        <translation>{sm} 上的 flash 不支持训练头维度超过 192 的模型（此处为 {head}）</translation>
    </message>
    <message>
        <source>{why}: it would not run there</source>
        <translation>{why}：无法在该 GPU 上运行</translation>
    </message>
    <message>
        <source>PyTorch&apos;s memory-efficient kernel takes bf16 from sm80 on, this GPU is {sm}: it would not run there</source>
        <translation>PyTorch 的显存高效内核从 sm80 起才支持 bf16，此 GPU 为 {sm}：无法在其上运行</translation>
    </message>
    <message>
        <source>NVLink, {rate:g} GB/s per direction</source>
        <translation>NVLink，每个方向 {rate:g} GB/s</translation>
    </message>
    <message>
        <source>the catalog&apos;s NVLink figure for the module</source>
        <translation>硬件目录中该模组的 NVLink 数据</translation>
    </message>
    <message>
        <source>PCIe Gen{generation} x{lanes}, {rate:g} GB/s per direction</source>
        <translation>PCIe Gen{generation} x{lanes}，每个方向 {rate:g} GB/s</translation>
    </message>
    <message>
        <source>PCIe Gen{generation} x{lanes} (x16 assumed: no lane count in the catalog), {rate:g} GB/s per direction</source>
        <translation>PCIe Gen{generation} x{lanes}（按 x16 计：硬件目录中没有通道数），每个方向 {rate:g} GB/s</translation>
    </message>
    <message>
        <source>CPU heap kept by glibc (freed blocks pinned by the run&apos;s small objects)</source>
        <translation>glibc 保留的 CPU 堆内存（被运行中的小对象钉住、无法归还的已释放块）</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向传播</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向传播</translation>
    </message>
    <message>
        <source>optimizer step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <source>peak in {phase} at every depth</source>
        <translation>各深度下峰值均出现在{phase}</translation>
    </message>
    <message>
        <source>{phase} at {depths}</source>
        <translation>{depths} 层时在{phase}</translation>
    </message>
    <message>
        <source>peak in {where} layers, each phase extended on its own</source>
        <translation>峰值位置：{where}，各阶段分别外推</translation>
    </message>
    <message>
        <source>traced at {depths} layers, extrapolated to {layers}: NOT linear in depth ({worst} {off:.1%} off the line), {peaks}</source>
        <translation>在 {depths} 层追踪，外推到 {layers} 层：与深度并不呈线性关系（{worst} 偏离直线 {off:.1%}），{peaks}</translation>
    </message>
    <message>
        <source>traced at {depths} layers, extrapolated to {layers}: linear within {off:.1%}, {peaks}, but the lines move the peak from {crossing}</source>
        <translation>在 {depths} 层追踪，外推到 {layers} 层：线性偏差在 {off:.1%} 以内，{peaks}，但按直线外推峰值会{crossing}</translation>
    </message>
    <message>
        <source>traced at {depths} layers, extrapolated to {layers}: linear within {off:.1%}, {peaks}</source>
        <translation>在 {depths} 层追踪，外推到 {layers} 层：线性偏差在 {off:.1%} 以内，{peaks}</translation>
    </message>
    <message>
        <source>batch {batch} at length {seq}</source>
        <translation>批量 {batch}、长度 {seq}</translation>
    </message>
    <message>
        <source>; {shapes} also traced at full depth, and read there</source>
        <translation>；{shapes} 另在完整深度追踪，并直接读取该处的数值</translation>
    </message>
    <message>
        <source>extended from {depths} layers the peak would move from {crossing} at {layers} layers</source>
        <translation>由 {depths} 层外推到 {layers} 层时，峰值会{crossing}</translation>
    </message>
    <message>
        <source>{worst} was {off:.1%} off the line through {depths} layers and the full-depth trace (more than {tolerance:.0%})</source>
        <translation>{worst} 偏离由 {depths} 层与完整深度追踪所定直线 {off:.1%}（超过 {tolerance:.0%}）</translation>
    </message>
    <message>
        <source>at {depths} layers {worst} was {off:.1%} off a line in depth (more than {tolerance:.0%})</source>
        <translation>在 {depths} 层时，{worst} 偏离随深度变化的直线 {off:.1%}（超过 {tolerance:.0%}）</translation>
    </message>
    <message>
        <source>a depth</source>
        <translation>某个深度</translation>
    </message>
    <message>
        <source>{before} to {after} (batch {batch}, length {seq})</source>
        <translation>从{before}移到{after}（批大小 {batch}，序列长度 {seq}）</translation>
    </message>
    <message>
        <source>CUDA context and kernels (lazy module loading)</source>
        <translation>CUDA 上下文和内核（延迟模块加载）</translation>
    </message>
    <message>
        <source>pytorch/pytorch#86509: 287,047,680 bytes with CUDA_MODULE_LOADING=LAZY (PyTorch&apos;s default since 1.13) against 666,632,192 eager; the real figure varies with GPU, driver and libraries: the probe measures yours</source>
        <translation>pytorch/pytorch#86509：CUDA_MODULE_LOADING=LAZY（PyTorch 自 1.13 起的默认设置）下为 287,047,680 字节，立即加载时为 666,632,192 字节；实际数值因 GPU、驱动和库而异：检测会测出你的机器上的实际值</translation>
    </message>
    <message>
        <source>cuBLAS workspace</source>
        <translation>cuBLAS 工作区</translation>
    </message>
    <message>
        <source>PyTorch CublasHandlePool.cpp default CUBLAS_WORKSPACE_CONFIG :4096:2:16:8 (pytorch/pytorch#89027)</source>
        <translation>PyTorch CublasHandlePool.cpp 的默认 CUBLAS_WORKSPACE_CONFIG :4096:2:16:8（pytorch/pytorch#89027）</translation>
    </message>
    <message>
        <source>PyTorch CublasHandlePool.cpp: 32 MiB on Hopper (compute capability 9.x), cuBLAS&apos;s recommendation (pytorch/pytorch#89027, #120925)</source>
        <translation>PyTorch CublasHandlePool.cpp：Hopper（计算能力 9.x）上为 32 MiB，即 cuBLAS 的推荐值（pytorch/pytorch#89027、#120925）</translation>
    </message>
    <message>
        <source>{source}; twice when training: cuBLAS handles are per thread (aten/src/ATen/cuda/CublasHandlePool.cpp) and each handle and stream has its own workspace (cublas_handle_stream_to_workspace), and autograd runs backward on its own thread for each CUDA device (torch/csrc/autograd/engine.cpp, device threads): measured on an H100 (benchmarks/estimate_accuracy_gpu.py), training runs held one workspace more than inference runs</source>
        <translation>{source}；训练时为两份：cuBLAS 句柄按线程分配（aten/src/ATen/cuda/CublasHandlePool.cpp），每个句柄与 stream 的组合都有各自的工作区（cublas_handle_stream_to_workspace），而 autograd 会为每个 CUDA 设备在单独的线程上运行反向传播（torch/csrc/autograd/engine.cpp，设备线程）：在 H100 上实测（benchmarks/estimate_accuracy_gpu.py），训练运行比推理运行多占用一个工作区</translation>
    </message>
    <message>
        <source>CUDA caching allocator (reserved beyond the tensors: segments, rounding, splits)</source>
        <translation>CUDA 缓存分配器（张量之外的已预留部分：段、取整、拆分）</translation>
    </message>
    <message>
        <source>every traced allocation and free replayed through a model of PyTorch&apos;s CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp, default settings: 512-byte rounding, 2 MiB small and 20 MiB large segments, best fit, splitting); reserved memory is what nvidia-smi shows and what runs out first</source>
        <translation>将追踪到的每次分配和释放在 PyTorch CUDA 缓存分配器的模型中重放（c10/cuda/CUDACachingAllocator.cpp，默认设置：按 512 字节取整，2 MiB 小段和 20 MiB 大段，最佳适配，拆分）；已预留显存就是 nvidia-smi 显示的数值，也是最先耗尽的部分</translation>
    </message>
    <message>
        <source>torch.nn.parallel.DistributedDataParallel: gradients are copied into communication buckets of the same total size unless gradient_as_bucket_view=True</source>
        <translation>torch.nn.parallel.DistributedDataParallel：除非设置 gradient_as_bucket_view=True，否则梯度会被复制到总大小相同的通信桶中</translation>
    </message>
    <message>
        <source>batch {batch} at length {seq} lies outside the traced shapes (batch {b0}-{b1}, length {s0}-{s1}): extended along lines no trace checked there, where the peak can move to another moment of the step; no measured error band applies, trace this shape for one</source>
        <translation>批大小 {batch}、序列长度 {seq} 超出了已追踪的形状（批大小 {b0}-{b1}，序列长度 {s0}-{s1}）：沿着在该处未经任何追踪检验的直线外推，而峰值可能移到训练步骤的另一个时刻；不适用任何实测误差范围，追踪这一形状才能得到</translation>
    </message>
    <message>
        <source>traced at full depth ({layers} layers): {why}</source>
        <translation>按完整深度追踪（{layers} 层）：{why}</translation>
    </message>
    <message>
        <source>traced at full depth ({layers} layers)</source>
        <translation>按完整深度追踪（{layers} 层）</translation>
    </message>
    <message>
        <source>traced at full depth: {why}</source>
        <translation>按完整深度追踪：{why}</translation>
    </message>
    <message>
        <source>traced at full depth</source>
        <translation>按完整深度追踪</translation>
    </message>
    <message>
        <source>not measured: catalog/autograd_objects.toml is missing, tensors only</source>
        <translation>未测量：缺少 catalog/autograd_objects.toml，仅计入张量</translation>
    </message>
    <message>
        <source>resident memory of a fresh process that imported what building the model imported and ran one warm-up step: what a real run holds before its first tensor</source>
        <translation>全新进程导入构建模型所需的模块并运行一次预热步后的常驻内存：即实际运行在创建第一个张量之前就已占用的内存</translation>
    </message>
    <message>
        <source>measured in the trace process after building the model and one warm-up step ({how})</source>
        <translation>在追踪进程中构建模型并运行一次预热步后测得（{how}）</translation>
    </message>
    <message>
        <source>measured in the trace process after building the model and one warm-up step</source>
        <translation>在追踪进程中构建模型并运行一次预热步后测得</translation>
    </message>
    <message>
        <source>; and the buffers each convolution and batch norm call takes while it runs, measured by running each distinct call once on this machine&apos;s CPU at its traced shapes</source>
        <translation>；以及每次卷积和批归一化调用在运行期间占用的缓冲区，按追踪到的形状在本机 CPU 上将每种不同的调用实际运行一次测得</translation>
    </message>
    <message>
        <source>; and the buffers each convolution and batch norm call takes while it runs, measured by running each distinct call once on this machine&apos;s CPU at its traced shapes, except some convolution or batch norm calls too large or too slow to run here, or that failed, whose buffers are left out, so this line may be low</source>
        <translation>；以及每次卷积和批归一化调用在运行期间占用的缓冲区，按追踪到的形状在本机 CPU 上将每种不同的调用实际运行一次测得；但部分卷积或批归一化调用过大、过慢而无法在本机运行，或运行失败，其缓冲区未计入，因此此项可能偏低</translation>
    </message>
    <message>
        <source>every traced allocation and free replayed through this machine&apos;s glibc malloc (posix_memalign, 64-byte aligned as PyTorch&apos;s CPU allocator) in a fresh copy of the trace process, with the small blocks a real step allocates among them (each tensor&apos;s headers, each autograd node&apos;s objects until backward runs it, the aligned blocks some CPU kernels allocate and free while they run, such as GELU&apos;s oneDNN objects; {objects}{measured}); the growth of its heap and mapped chunks (mallinfo2) beyond the tensors{placements}</source>
        <translation>在追踪进程的全新副本中，将追踪到的每次分配和释放经本机的 glibc malloc 重放（posix_memalign，与 PyTorch 的 CPU 分配器一样按 64 字节对齐），并穿插实际单步会分配的小内存块（每个张量的头部、每个 autograd 节点在反向传播执行它之前的对象、部分 CPU 算子在运行期间分配并释放的对齐内存块，例如 GELU 的 oneDNN 对象；{objects}{measured}）；取其堆和映射块（mallinfo2）超出张量部分的增长{placements}</translation>
    </message>
    <message>
        <source>; where each small block lands, and the state glibc&apos;s heap starts from, are not known and move the heap: this is the median over shuffled placements of their sizes from several heap starts, which gave {least} to {most}</source>
        <translation>；各个小内存块落在何处、glibc 堆的初始状态均无法确知，且都会影响堆的大小：此处取从几种设定的堆初始状态出发、将其大小随机打乱排布后的中位数，各次结果在 {least} 到 {most} 之间</translation>
    </message>
    <message>
        <source>CPU allocator (freed memory glibc keeps for reuse)</source>
        <translation>CPU 分配器（glibc 为复用而保留的已释放内存）</translation>
    </message>
    <message>
        <source>CPU allocator (freed memory kept for reuse)</source>
        <translation>CPU 分配器（为复用而保留的已释放内存）</translation>
    </message>
    <message>
        <source>not replayed: only glibc&apos;s malloc (Linux) can be replayed; memory the allocator keeps is not counted</source>
        <translation>未重放：只有 glibc 的 malloc（Linux）可以重放；未计入分配器保留的内存</translation>
    </message>
    <message>
        <source>PyTorch runtime (interpreter, libraries, model code)</source>
        <translation>PyTorch 运行时（解释器、库、模型代码）</translation>
    </message>
    <message>
        <source>DDP gradient buckets</source>
        <translation>DDP 梯度桶</translation>
    </message>
    <message>
        <source>FP8 tensor</source>
        <translation>FP8 张量核心</translation>
    </message>
    <message>
        <source>BF16 matmul, best measured</source>
        <translation>BF16 矩阵乘法，最佳实测</translation>
    </message>
    <message>
        <source>BF16 tensor</source>
        <translation>BF16 张量核心</translation>
    </message>
    <message>
        <source>FP16 tensor</source>
        <translation>FP16 张量核心</translation>
    </message>
    <message>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <source>TF32 tensor</source>
        <translation>TF32 张量核心</translation>
    </message>
    <message>
        <source>{gpu}: the catalog has no dense {rate} rate</source>
        <translation>{gpu}：硬件目录中没有其 {rate} 稠密算力数据</translation>
    </message>
    <message>
        <source>{gpu} (compute capability {major}.{minor}) has no FP8 tensor cores: FP8 matrix products need 8.9 (Ada) or later, so this precision cannot run on it</source>
        <translation>{gpu}（计算能力 {major}.{minor}）没有 FP8 张量核心：FP8 矩阵乘法需要 8.9（Ada）或更高，因此该精度无法在其上运行</translation>
    </message>
    <message>
        <source>{gpu} (compute capability {major}.{minor}) has no BF16 tensor cores (they came with 8.0, Ampere): PyTorch emulates BF16 there, slowly</source>
        <translation>{gpu}（计算能力 {major}.{minor}）没有 BF16 张量核心（自 8.0 即 Ampere 起才有）：PyTorch 在其上以软件模拟 BF16，速度很慢</translation>
    </message>
    <message>
        <source>; AMP FP16 runs on its FP16 tensor cores</source>
        <translation>；AMP FP16 可在其 FP16 张量核心上运行</translation>
    </message>
    <message>
        <source>channels-first batch normalization priced at the bandwidth share only: {gpu}&apos;s multiprocessor figures (its compute capability&apos;s FP32 results per SM per clock, or its datasheet FP32 rate) are not known here, so it may take longer</source>
        <translation>通道优先的批归一化只按带宽份额计价：此处不知道 {gpu} 的多处理器参数（其计算能力每个 SM 每时钟的 FP32 结果数，或数据手册上的 FP32 速率），实际可能更慢</translation>
    </message>
    <message>
        <source>FP16 and BF16 matrix products at {gpu}&apos;s best measured matmul rate, {rate:,.0f} TFLOPS (published Maximum Achievable Matmul FLOPS), where its datasheet gives {datasheet}</source>
        <translation>FP16 和 BF16 矩阵乘法按 {gpu} 的最佳实测矩阵乘法速率 {rate:,.0f} TFLOPS 计（已公开的最大可达矩阵乘法 FLOPS），其规格书给出的是 {datasheet}</translation>
    </message>
    <message>
        <source>no dense rate</source>
        <translation>无稠密算力数据</translation>
    </message>
    <message>
        <source>no {kind} accuracy band has been measured: a tenth kept free</source>
        <translation>尚未测得 {kind} 的误差范围：预留十分之一</translation>
    </message>
    <message>
        <source>{benchmark} records no under-estimate: a tenth kept free</source>
        <translation>{benchmark} 未记录到低估：预留十分之一</translation>
    </message>
    <message>
        <source>the largest under-estimate against real {kind} runs ({error:+.1f} %, {benchmark} over {cases} cases), rounded up</source>
        <translation>与真实 {kind} 运行相比的最大低估幅度（{error:+.1f} %，来自 {benchmark} 的 {cases} 个用例），向上取整</translation>
    </message>
    <message>
        <source>set by you</source>
        <translation>由你设置</translation>
    </message>
    <message>
        <source>{usable:,.1f} GiB usable ({memory:,.1f} GiB less {headroom} headroom)</source>
        <translation>可用 {usable:,.1f} GiB（{memory:,.1f} GiB 减去 {headroom} 余量）</translation>
    </message>
    <message>
        <source>fits: {peak:,.1f} GiB of {usable}</source>
        <translation>放得下：需要 {peak:,.1f} GiB，{usable}</translation>
    </message>
    <message>
        <source>does not fit with the headroom: needs {peak:,.1f} GiB of {usable}</source>
        <translation>计入余量后放不下：需要 {peak:,.1f} GiB，{usable}</translation>
    </message>
    <message>
        <source>does not fit: needs {peak:,.1f} GiB, {usable}</source>
        <translation>放不下：需要 {peak:,.1f} GiB，{usable}</translation>
    </message>
    <message>
        <source>{model} ({cores} logical cores)</source>
        <translation>{model}（{cores} 个逻辑核心）</translation>
    </message>
    <message>
        <source>measured by gpuconfig probe on {device} at {when} ({path})</source>
        <translation>由 gpuconfig 检测于 {when} 在 {device} 上测得（{path}）</translation>
    </message>
    <message>
        <source>measured by gpuconfig probe on {device} at {when}</source>
        <translation>由 gpuconfig 检测于 {when} 在 {device} 上测得</translation>
    </message>
    <message>
        <source>measured by gpuconfig probe on {device} ({path})</source>
        <translation>由 gpuconfig 检测在 {device} 上测得（{path}）</translation>
    </message>
    <message>
        <source>measured by gpuconfig probe on {device}</source>
        <translation>由 gpuconfig 检测在 {device} 上测得</translation>
    </message>
    <message>
        <source>pre-training</source>
        <translation>预训练</translation>
    </message>
    <message>
        <source>full fine-tune</source>
        <translation>全量微调</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>QLoRA</source>
        <translation>QLoRA</translation>
    </message>
    <message>
        <source>inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>TF32</source>
        <translation>TF32</translation>
    </message>
    <message>
        <source>AMP FP16</source>
        <translation>FP16 混合精度（AMP）</translation>
    </message>
    <message>
        <source>AMP BF16</source>
        <translation>BF16 混合精度（AMP）</translation>
    </message>
    <message>
        <source>pure BF16</source>
        <translation>纯 BF16</translation>
    </message>
    <message>
        <source>FP8</source>
        <translation>FP8</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <source>Adam / AdamW</source>
        <translation>Adam / AdamW</translation>
    </message>
    <message>
        <source>Adafactor</source>
        <translation>Adafactor</translation>
    </message>
    <message>
        <source>DDP</source>
        <translation>DDP</translation>
    </message>
    <message>
        <source>ZeRO-1</source>
        <translation>ZeRO-1</translation>
    </message>
    <message>
        <source>ZeRO-2</source>
        <translation>ZeRO-2</translation>
    </message>
    <message>
        <source>FSDP / ZeRO-3</source>
        <translation>FSDP / ZeRO-3</translation>
    </message>
    <message>
        <source>tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>ZeRO-Offload (optimizer on the CPU)</source>
        <translation>ZeRO-Offload（优化器放在 CPU 上）</translation>
    </message>
    <message>
        <source>batch {batch}</source>
        <translation>批大小 {batch}</translation>
    </message>
    <message>
        <source>length {seq:,}</source>
        <translation>长度 {seq:,}</translation>
    </message>
    <message>
        <source>{steps} accumulated</source>
        <translation>{steps} 步累积</translation>
    </message>
    <message>
        <source>checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <source>channels-last</source>
        <translation>通道在后</translation>
    </message>
    <message>
        <source>torch.compile</source>
        <translation>torch.compile</translation>
    </message>
</context>
<context>
    <name>WorkloadForm</name>
    <message>
        <source>Image classification · ResNet-50</source>
        <translation>图像分类 · ResNet-50</translation>
    </message>
    <message>
        <source>BERT-base fine-tune</source>
        <translation>BERT-base 微调</translation>
    </message>
    <message>
        <source>LLM LoRA · Llama 3 8B</source>
        <translation>LLM LoRA · Llama 3 8B</translation>
    </message>
    <message>
        <source>LLM inference · Llama 3 8B</source>
        <translation>LLM 推理 · Llama 3 8B</translation>
    </message>
    <message>
        <source>Stable Diffusion UNet fine-tune</source>
        <translation>Stable Diffusion UNet 微调</translation>
    </message>
    <message>
        <source>Pre-training</source>
        <translation>预训练</translation>
    </message>
    <message>
        <source>Full fine-tune</source>
        <translation>全量微调</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>QLoRA (4-bit base)</source>
        <translation>QLoRA（4 位基座模型）</translation>
    </message>
    <message>
        <source>Inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <source>TF32</source>
        <translation>TF32</translation>
    </message>
    <message>
        <source>Mixed FP16 (AMP)</source>
        <translation>FP16 混合精度（AMP）</translation>
    </message>
    <message>
        <source>Mixed BF16 (AMP)</source>
        <translation>BF16 混合精度（AMP）</translation>
    </message>
    <message>
        <source>Pure BF16</source>
        <translation>纯 BF16</translation>
    </message>
    <message>
        <source>FP8</source>
        <translation>FP8</translation>
    </message>
    <message>
        <source>INT8 weights</source>
        <translation>INT8 权重</translation>
    </message>
    <message>
        <source>INT4 weights</source>
        <translation>INT4 权重</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <source>Adam / AdamW</source>
        <translation>Adam / AdamW</translation>
    </message>
    <message>
        <source>8-bit AdamW</source>
        <translation>8 位 AdamW</translation>
    </message>
    <message>
        <source>Adafactor</source>
        <translation>Adafactor</translation>
    </message>
    <message>
        <source>DDP (data parallel)</source>
        <translation>DDP（数据并行）</translation>
    </message>
    <message>
        <source>ZeRO-1</source>
        <translation>ZeRO-1</translation>
    </message>
    <message>
        <source>ZeRO-2</source>
        <translation>ZeRO-2</translation>
    </message>
    <message>
        <source>FSDP / ZeRO-3</source>
        <translation>FSDP / ZeRO-3</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>Pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>ZeRO-Offload (optimizer on the CPU)</source>
        <translation>ZeRO-Offload（优化器放在 CPU 上）</translation>
    </message>
    <message>
        <source>built-in model, config.json or .py file</source>
        <translation>内置模型、config.json 或 .py 文件</translation>
    </message>
    <message>
        <source>A built-in model, a Hugging Face config.json (or its folder), or a Python file that builds the model; a Python file is run as code, so give only files you trust</source>
        <translation>内置模型、Hugging Face 的 config.json（或其所在文件夹），或用于构建模型的 Python 文件；Python 文件会作为代码运行，请只使用你信任的文件</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Open a Hugging Face config.json, or a Python file that builds a model (gpuconfig runs its code)</source>
        <translation>打开 Hugging Face 的 config.json，或用于构建模型的 Python 文件（gpuconfig 会运行其中的代码）</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Eager</source>
        <translation>Eager</translation>
    </message>
    <message>
        <source>SDPA · math</source>
        <translation>SDPA · math</translation>
    </message>
    <message>
        <source>SDPA · memory-efficient</source>
        <translation>SDPA · 显存高效</translation>
    </message>
    <message>
        <source>SDPA · flash</source>
        <translation>SDPA · flash</translation>
    </message>
    <message>
        <source>FlashAttention-2</source>
        <translation>FlashAttention-2</translation>
    </message>
    <message>
        <source>What transformers and PyTorch pick: SDPA where the model supports it (else eager), and PyTorch&apos;s flash kernel on an sm80+ GPU in FP16/BF16, its memory-efficient kernel otherwise</source>
        <translation>transformers 和 PyTorch 的默认选择：模型支持时使用 SDPA（否则使用 eager）；在 sm80+ GPU 上以 FP16/BF16 运行时使用 PyTorch 的 flash 内核，其他情况使用其显存高效内核</translation>
    </message>
    <message>
        <source>Matmul and softmax in PyTorch operators: the batch × heads × length² attention probabilities are kept for the backward pass</source>
        <translation>用 PyTorch 算子实现矩阵乘法和 softmax：批大小 × 头数 × 长度² 的注意力概率会保留到反向传播</translation>
    </message>
    <message>
        <source>scaled_dot_product_attention&apos;s math path (PyTorch&apos;s fallback): keeps the length² probabilities, in FP32</source>
        <translation>scaled_dot_product_attention 的 math 路径（PyTorch 的后备实现）：保留长度² 的概率矩阵，使用 FP32</translation>
    </message>
    <message>
        <source>scaled_dot_product_attention&apos;s memory-efficient kernel (CUDA): keeps one log-sum-exp per query, not the length² scores; takes masks and FP32</source>
        <translation>scaled_dot_product_attention 的显存高效内核（CUDA）：每个查询只保留一个 log-sum-exp，而非长度² 的分数；支持掩码和 FP32</translation>
    </message>
    <message>
        <source>scaled_dot_product_attention&apos;s flash kernel: keeps one log-sum-exp per query; needs FP16/BF16, no attention mask, and an sm80+ GPU</source>
        <translation>scaled_dot_product_attention 的 flash 内核：每个查询保留一个 log-sum-exp；需要 FP16/BF16、无注意力掩码以及 sm80+ GPU</translation>
    </message>
    <message>
        <source>The flash-attn package, which transformers calls with attn_implementation=&quot;flash_attention_2&quot;: the same memory as the flash kernel; CUDA, FP16/BF16 and an sm80+ GPU</source>
        <translation>flash-attn 包，transformers 通过 attn_implementation=&quot;flash_attention_2&quot; 调用它：显存占用与 flash 内核相同；需要 CUDA、FP16/BF16 和 sm80+ GPU</translation>
    </message>
    <message>
        <source>How attention runs: it decides whether the length² attention scores are kept for backward</source>
        <translation>注意力的计算方式：决定长度² 的注意力分数是否保留到反向传播</translation>
    </message>
    <message>
        <source>GPU (CUDA)</source>
        <translation>GPU（CUDA）</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Samples per GPU in one forward and backward pass (the micro-batch)</source>
        <translation>每个 GPU 在一次前向和反向传播中处理的样本数（微批次）</translation>
    </message>
    <message>
        <source>model default</source>
        <translation>模型默认值</translation>
    </message>
    <message>
        <source>Tokens per sample for text and speech models, the image side in pixels for vision models</source>
        <translation>文本和语音模型为每个样本的 token 数，视觉模型为图像边长（像素）</translation>
    </message>
    <message>
        <source>New tokens generated after the prompt (inference)</source>
        <translation>提示词之后生成的新 token 数（推理）</translation>
    </message>
    <message>
        <source>Micro-batches per optimizer step: the effective batch is batch × this</source>
        <translation>每个优化器步骤的微批次数：有效批大小 = 批大小 × 此值</translation>
    </message>
    <message>
        <source>Activation checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <source>Recompute activations in the backward pass instead of keeping them</source>
        <translation>在反向传播中重新计算激活值，而不是保留它们</translation>
    </message>
    <message>
        <source>Channels-last memory format (NHWC)</source>
        <translation>通道在后的内存格式（NHWC）</translation>
    </message>
    <message>
        <source>Convolution networks: the model and its inputs moved to torch.channels_last. PyTorch&apos;s default is channels-first (NCHW), whose batch normalization runs well below the memory bandwidth on datacenter GPUs; only the time estimate changes</source>
        <translation>卷积网络：模型及其输入转为 torch.channels_last。PyTorch 默认为通道优先（NCHW），其批归一化在数据中心 GPU 上远低于内存带宽；只影响时间估算</translation>
    </message>
    <message>
        <source>torch.compile (fused kernels)</source>
        <translation>torch.compile（融合内核）</translation>
    </message>
    <message>
        <source>The model run under torch.compile, default mode: the operators between two matrix products fuse into generated kernels, which move fewer bytes and launch fewer kernels. The optimizer step stays eager; only the time estimate changes</source>
        <translation>模型以 torch.compile 默认模式运行：两次矩阵乘法之间的算子融合为生成的内核，搬运的字节更少，启动的内核也更少。优化器步骤仍以 eager 模式运行；只有时间估算会改变</translation>
    </message>
    <message>
        <source>PEFT&apos;s default for the model</source>
        <translation>PEFT 对该模型的默认设置</translation>
    </message>
    <message>
        <source>All linear layers</source>
        <translation>所有线性层</translation>
    </message>
    <message>
        <source>The layers that get adapters, as PEFT&apos;s target_modules: module names separated by commas</source>
        <translation>添加适配器的层，即 PEFT 的 target_modules：以逗号分隔的模块名</translation>
    </message>
    <message>
        <source>Scales the adapters&apos; output by alpha / rank; no memory of its own</source>
        <translation>按 alpha / rank 缩放适配器的输出；本身不占用显存</translation>
    </message>
    <message>
        <source>Dropout before the adapters: its mask is kept for the backward pass</source>
        <translation>适配器之前的 Dropout：其掩码会保留到反向传播</translation>
    </message>
    <message>
        <source>Double quantization</source>
        <translation>双重量化</translation>
    </message>
    <message>
        <source>Quantize the 4-bit weights&apos; scales too: 0.127 instead of 0.5 bits per weight (QLoRA)</source>
        <translation>对 4 位权重的缩放因子也进行量化：每个权重占 0.127 位而非 0.5 位（QLoRA）</translation>
    </message>
    <message>
        <source>At this machine&apos;s measured speed</source>
        <translation>按本机实测速度</translation>
    </message>
    <message>
        <source>Price the step at the matmul rates and memory bandwidth the Probe tab last measured on this machine (its GPU, or its CPU when the workload runs there) instead of the datasheet&apos;s</source>
        <translation>按“检测”标签页上次在本机实测的矩阵乘法速率和访存带宽（即本机 GPU；工作负载在 CPU 上运行时则为 CPU）估算单步时间，而不使用规格表数据</translation>
    </message>
    <message>
        <source>{name} · {memory:g} GB</source>
        <translation>{name} · {memory:g} GB</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Sequence / image size</source>
        <translation>序列长度 / 图像尺寸</translation>
    </message>
    <message>
        <source>Tokens to generate</source>
        <translation>生成 token 数</translation>
    </message>
    <message>
        <source>Gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>LoRA targets</source>
        <translation>LoRA 目标层</translation>
    </message>
    <message>
        <source>LoRA alpha</source>
        <translation>LoRA alpha</translation>
    </message>
    <message>
        <source>LoRA dropout</source>
        <translation>LoRA dropout</translation>
    </message>
    <message>
        <source>Runs on</source>
        <translation>运行设备</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>GPU model</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <source>model default ({n:,})</source>
        <translation>模型默认值（{n:,}）</translation>
    </message>
    <message>
        <source>Effective batch: {n:,} samples per step</source>
        <translation>有效批大小：每步 {n:,} 个样本</translation>
    </message>
    <message>
        <source>Choose a model (a .py file is run as Python code: choose only files you trust)</source>
        <translation>选择模型（.py 文件会作为 Python 代码运行：请只选择你信任的文件）</translation>
    </message>
    <message>
        <source>Model definitions (config.json *.json *.py)</source>
        <translation>模型定义 (config.json *.json *.py)</translation>
    </message>
    <message>
        <source>Hugging Face config (*.json)</source>
        <translation>Hugging Face 配置 (*.json)</translation>
    </message>
    <message>
        <source>Python file that builds the model, run as code (*.py)</source>
        <translation>构建模型的 Python 文件，将作为代码运行 (*.py)</translation>
    </message>
</context>
<context>
    <name>WorkloadPanel</name>
    <message>
        <source>Crosses the link per step</source>
        <translation>每步经链路传输的数据量</translation>
    </message>
    <message>
        <source>Step compute on this card</source>
        <translation>本卡单步计算</translation>
    </message>
    <message>
        <source>Copy per step</source>
        <translation>每步复制</translation>
    </message>
    <message>
        <source>Slowdown, copy before each step</source>
        <translation>减速（每步前复制）</translation>
    </message>
    <message>
        <source>Slowdown with a prefetching loader</source>
        <translation>减速（使用预取加载器）</translation>
    </message>
    <message>
        <source>Loading the weights once</source>
        <translation>一次性加载权重</translation>
    </message>
    <message>
        <source>{egpu} (desktop: {desktop})</source>
        <translation>{egpu}（台式机：{desktop}）</translation>
    </message>
    <message>
        <source>In a plain training loop the copy waits for the step&apos;s kernels on the same CUDA stream; a loader that prefetches the next batch on a side stream (pinned memory) hides it behind compute.</source>
        <translation>在普通训练循环中，复制操作要在同一 CUDA stream 上等待该步的内核完成；若加载器在另一条 stream 上预取下一批数据（使用锁页内存），就能将复制隐藏在计算之后。</translation>
    </message>
    <message>
        <source>none measurable (under 0.1%)</source>
        <translation>无可测量的影响（低于 0.1%）</translation>
    </message>
    <message>
        <source>&lt;b&gt;{share:.1%}&lt;/b&gt; slower</source>
        <translation>慢 &lt;b&gt;{share:.1%}&lt;/b&gt;</translation>
    </message>
</context>
<context>
    <name>WorkloadTab</name>
    <message>
        <source>Start from:</source>
        <translation>从预设开始：</translation>
    </message>
    <message>
        <source>Accumulation, GPU count, strategy, memory format, torch.compile and GPU model are answered at once from the model&apos;s trace, and so are a batch and length between the traced ones (the asked batch and twice it, the asked length and half it); beyond them the answer is extended at once, marked as such, and the new shape is traced. Model, task, precision, optimizer, checkpointing, attention, device and the LoRA settings (all but alpha) need a new trace: PyTorch runs the real model on fake tensors in a separate process (seconds to a minute; kept on disk, so each is traced once).</source>
        <translation>梯度累积、GPU 数量、并行策略、内存格式、torch.compile 和 GPU 型号可根据模型的追踪结果立即得出；介于已追踪形状之间的批大小和序列长度（所填批大小及其两倍、所填序列长度及其一半）也是如此；超出这些形状时，会立即给出标明为外推的结果，同时追踪新的形状。模型、任务、精度、优化器、检查点、注意力、设备以及 LoRA 设置（alpha 除外）需要重新追踪：PyTorch 会在单独的进程中用伪张量运行真实模型（耗时数秒到一分钟；结果保存在磁盘上，因此每种组合只需追踪一次）。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Run again</source>
        <translation>重新运行</translation>
    </message>
    <message>
        <source>Trace cancelled.</source>
        <translation>追踪已取消。</translation>
    </message>
    <message>
        <source>no probe run of this machine yet: run a suite in the Probe tab first</source>
        <translation>本机尚无检测记录：请先在“检测”选项卡中运行一套测试</translation>
    </message>
    <message>
        <source>the Probe tab&apos;s run {id}</source>
        <translation>“检测”选项卡中的运行 {id}</translation>
    </message>
    <message>
        <source>Tracing {model} at batch {batch}, length {seq}…</source>
        <translation>正在以批大小 {batch}、序列长度 {seq} 追踪 {model}…</translation>
    </message>
    <message>
        <source>Tracing the model to find out what it needs…</source>
        <translation>正在追踪模型以确定其需求…</translation>
    </message>
    <message>
        <source>Tracing {model}…</source>
        <translation>正在追踪 {model}…</translation>
    </message>
    <message>
        <source>Comparing techniques…</source>
        <translation>正在比较各项技术…</translation>
    </message>
    <message>
        <source>Trace cancelled</source>
        <translation>追踪已取消</translation>
    </message>
    <message>
        <source>Comparison cancelled: the table shows the instant options only.</source>
        <translation>比较已取消：表格仅显示可立即得出的选项。</translation>
    </message>
    <message>
        <source>Tracing {model}: {what}</source>
        <translation>正在追踪 {model}：{what}</translation>
    </message>
    <message>
        <source>Comparing techniques: {what}</source>
        <translation>正在比较各项技术：{what}</translation>
    </message>
    <message>
        <source>Techniques compared.</source>
        <translation>技术比较完成。</translation>
    </message>
    <message>
        <source>Could not compare the techniques: {error}</source>
        <translation>无法比较各项技术：{error}</translation>
    </message>
    <message>
        <source>Traced in {seconds:.1f} s; what lies between its shapes is answered from the trace.</source>
        <translation>追踪用时 {seconds:.1f} s；介于已追踪形状之间的结果均根据追踪结果得出。</translation>
    </message>
    <message>
        <source>, length {n:,}</source>
        <translation>，序列长度 {n:,}</translation>
    </message>
    <message>
        <source>{model}: {task}, {precision}, batch {batch}{seq}</source>
        <translation>{model}：{task}，{precision}，批大小 {batch}{seq}</translation>
    </message>
</context>
</TS>
