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
            <source>Judged with {headroom} of the card's memory kept free for what the estimate does not see (other programs on the card, fragmentation, the estimate's own error): {why}. Change it in File → Fit headroom…</source>
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
            <source>Expected error of the peak: no measured band for GPUs yet</source>
            <translation>峰值的预期误差：暂无 GPU 的实测误差范围</translation>
        </message>
        <message>
            <source>Expected error of the peak: {why}</source>
            <translation>峰值的预期误差：{why}</translation>
        </message>
        <message>
            <source>Expected error of the peak: ±{median:.0f} % (held-out median), worst {worst:+.0f} %, from {benchmark} over {cases} cases</source>
            <translation>峰值的预期误差：±{median:.0f} %（留出集中位数），最差 {worst:+.0f} %，来自 {benchmark} 的 {cases} 个用例</translation>
        </message>
        <message>
            <source>Each case's estimate against the memory PyTorch's caching allocator reserved in a real run (torch.cuda.max_memory_reserved, which leaves out the CUDA context); nothing in the estimate is fitted on these runs; measured {date} on {machine}</source>
            <translation>将每个用例的估算值与实际运行中 PyTorch 缓存分配器预留的显存（torch.cuda.max_memory_reserved，不含 CUDA 上下文）进行比较；估算中没有任何部分基于这些运行拟合；于 {date} 在 {machine} 上实测</translation>
        </message>
        <message>
            <source>Each case's estimate against the peak memory of a real run, with what the estimate fits taken from other model families only; measured {date} on {machine}</source>
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
            <source> ({share:.0%} of the matmuls' and convolutions' time set by their bytes)</source>
            <translation>（矩阵乘法和卷积的耗时中有 {share:.0%} 由访存字节量决定）</translation>
        </message>
        <message>
            <source>; waits {wait} per step on the GPUs' collectives over {link}</source>
            <translation>；每步等待 GPU 间经 {link} 的集合通信 {wait}</translation>
        </message>
        <message>
            <source>bound by kernel launches: {kernels:,.0f} kernels take {launch}; the GPU's work: {split}</source>
            <translation>受内核启动限制：{kernels:,.0f} 个内核耗时 {launch}；GPU 计算部分：{split}</translation>
        </message>
        <message>
            <source>eager PyTorch at this machine's measured rates</source>
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
            <source>Matmuls at {compute:.0%} and convolutions at {conv:.0%} of the dense rate, other operators at {memory:.0%} of the bandwidth; each class of matmuls of like arithmetic intensity takes the longer of its FLOPs and its bytes (the roofline): {source}. torch.compile fuses operators and is usually faster.</source>
            <translation>矩阵乘法按稠密算力的 {compute:.0%}、卷积按 {conv:.0%} 计，其他算子按带宽的 {memory:.0%} 计；每类算术强度相近的矩阵乘法取其 FLOPs 耗时与字节耗时中的较长者（roofline 模型）：{source}。torch.compile 会融合算子，通常更快。</translation>
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
            <source>First token after {first} · then {rate:,.1f} tokens/s per sequence, {total:,.1f} in total (a decode step {step}, bound by {bound}; eager PyTorch) · whole request {whole}</source>
            <translation>首个 token 用时 {first} · 之后每个序列 {rate:,.1f} tokens/s，合计 {total:,.1f}（每个解码步 {step}，受{bound}限制；eager 模式 PyTorch） · 整个请求 {whole}</translation>
        </message>
        <message>
            <source>Each decode step reads every weight once for the batch and the KV cache so far at {share:.0%} of the memory bandwidth, and eager PyTorch launches each of its {kernels:,.0f} kernels ({launch:.0f} µs each): {source}. Compiled with CUDA graphs (torch.compile's reduce-overhead): {compiled:,.1f} tokens/s per sequence.</source>
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
            <source>The workload's memory against the cards: checking… ({model} is being traced)</source>
            <translation>工作负载所需显存与各显卡的对比：检查中…（正在追踪 {model}）</translation>
        </message>
        <message>
            <source>The build's workload is not checked against its cards: {why}</source>
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
            <source>; about {w:,} W at the wall ({eff:.0%} efficient) of the circuit's {c:,} W</source>
            <translation>；墙插端约 {w:,} W（转换效率 {eff:.0%}），电路上限为 {c:,} W</translation>
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
            <source>The laptop's own charger: an enclosure that charges with less drains the battery under load</source>
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
            <source>security '{level}'</source>
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
        <name>GuideMirrors</name>
        <message>
            <source>pypi.org and download.pytorch.org are often slow from mainland China. {label} is the torch wheel PyPI itself serves here, so USTC's PyPI mirror ({help}) has it: make the mirror pip's default index and install without PyTorch's index (uv: the mirror as the default index, in the environment made above). conda: USTC caches conda-forge ({conda}).</source>
            <translation>在中国大陆访问 pypi.org 和 download.pytorch.org 往往较慢。{label} 正是 PyPI 在此平台上提供的 torch wheel 包，因此 USTC 的 PyPI 镜像（{help}）也有：把该镜像设为 pip 的默认索引，无需 PyTorch 的索引即可安装（uv：在上面创建的环境中把镜像设为默认索引）。conda：USTC 缓存了 conda-forge（{conda}）。</translation>
        </message>
        <message>
            <source>pypi.org and download.pytorch.org are often slow from mainland China. {label} is only on PyTorch's own index, which no mirror carries officially: torch comes from there, and everything else (NumPy, the CUDA libraries PyPI holds, ...) can come from USTC's PyPI mirror ({help}). conda: USTC caches conda-forge ({conda}).</source>
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
            <source>This machine's last probe</source>
            <translation>本机最近一次检测</translation>
        </message>
        <message>
            <source>Type part of a name to search the catalog's GPUs</source>
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
            <source>A probe run's JSON: gpuconfig probe --json --output FILE, or an export from the Probe tab</source>
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
            <source>Add the install through USTC's PyPI mirror, for where pypi.org and download.pytorch.org are slow</source>
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
            <source>The probe report's own driver is used</source>
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
            <source>Inventory this machine, graph GPU and CPU use live, run PyTorch benchmarks (matmul, memory bandwidth, host-device copies, a real training step) and judge each result against the part's specification.</source>
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
            <source>The share of each card's memory every fit verdict keeps free</source>
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
            <source>Percent of each card's memory kept free when judging whether a workload fits (for other programs on the card, fragmentation and the estimate's own error).

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
            <source>Price ({currency})</source>
            <translation>价格（{currency}）</translation>
        </message>
        <message>
            <source>/h</source>
            <translation>/小时</translation>
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
            <source>A bought build: the job's electricity at the build's full power (every card at its board power and the CPU at its package power, through the supply), an upper bound; a rental: the rent</source>
            <translation>购买的装机方案：按整机满功率（每块显卡按其板卡功耗、CPU 按其封装功耗，并计入电源损耗）计算的任务电费，为上限值；租用：租金</translation>
        </message>
        <message>
            <source>A bought build: its price plus the first job's electricity</source>
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
            <source>Builds that hold the workload: {n} ({considered} GPU choices looked at), each with {headroom} of its cards' memory kept free. ★ marks those no other beats on both cost and speed; double-click one to load it.</source>
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
            <source>Give the dataset's samples to see the job on each</source>
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
            <source>Electricity at {price} per kWh, at each build's full power (an upper bound).</source>
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
            <source>Renting costs less per job than this build's electricity</source>
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
            <source>Changes what is trained or computed: the result is not the workload's as asked</source>
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
            <source>Reading this machine's inventory…</source>
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
            <source>The laptop's port, for a laptop with an eGPU</source>
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
            <source>Samples in the dataset: each build's and rental's job time and cost, and when buying pays off</source>
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
            <source>The price of a kWh, in the currency chosen: a bought build's running cost per job</source>
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
            <source>Each build holds its peak within the card's memory less {percent}: {why}</source>
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
            <source>The Python the estimator runs in too: the one GPUCONFIG_TORCH_PYTHON names, else the first Python added with Add… that has PyTorch, else gpuconfig's own when it has PyTorch, else the first found with PyTorch</source>
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
            <source>the CPU's optimizer step not counted</source>
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
            <source>Each GPU runs the micro-batch, so a step covers more samples; time is per sample, with the sharding's traffic between GPUs over the card's link</source>
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
            <source>Techniques are compared against a GPU's memory: choose to run on a GPU.</source>
            <translation>技术比较以 GPU 的显存为准：请选择在 GPU 上运行。</translation>
        </message>
    </context>
    <context>
        <name>VerdictBanner</name>
        <message>
            <source>Describe the laptop's port</source>
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
            <source>What transformers and PyTorch pick: SDPA where the model supports it (else eager), and PyTorch's flash kernel on an sm80+ GPU in FP16/BF16, its memory-efficient kernel otherwise</source>
            <translation>transformers 和 PyTorch 的默认选择：模型支持时使用 SDPA（否则使用 eager）；在 sm80+ GPU 上以 FP16/BF16 运行时使用 PyTorch 的 flash 内核，其他情况使用其显存高效内核</translation>
        </message>
        <message>
            <source>Matmul and softmax in PyTorch operators: the batch × heads × length² attention probabilities are kept for the backward pass</source>
            <translation>用 PyTorch 算子实现矩阵乘法和 softmax：批大小 × 头数 × 长度² 的注意力概率会保留到反向传播</translation>
        </message>
        <message>
            <source>scaled_dot_product_attention's math path (PyTorch's fallback): keeps the length² probabilities, in FP32</source>
            <translation>scaled_dot_product_attention 的 math 路径（PyTorch 的后备实现）：保留长度² 的概率矩阵，使用 FP32</translation>
        </message>
        <message>
            <source>scaled_dot_product_attention's memory-efficient kernel (CUDA): keeps one log-sum-exp per query, not the length² scores; takes masks and FP32</source>
            <translation>scaled_dot_product_attention 的显存高效内核（CUDA）：每个查询只保留一个 log-sum-exp，而非长度² 的分数；支持掩码和 FP32</translation>
        </message>
        <message>
            <source>scaled_dot_product_attention's flash kernel: keeps one log-sum-exp per query; needs FP16/BF16, no attention mask, and an sm80+ GPU</source>
            <translation>scaled_dot_product_attention 的 flash 内核：每个查询保留一个 log-sum-exp；需要 FP16/BF16、无注意力掩码以及 sm80+ GPU</translation>
        </message>
        <message>
            <source>The flash-attn package, which transformers calls with attn_implementation="flash_attention_2": the same memory as the flash kernel; CUDA, FP16/BF16 and an sm80+ GPU</source>
            <translation>flash-attn 包，transformers 通过 attn_implementation="flash_attention_2" 调用它：显存占用与 flash 内核相同；需要 CUDA、FP16/BF16 和 sm80+ GPU</translation>
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
            <source>PEFT's default for the model</source>
            <translation>PEFT 对该模型的默认设置</translation>
        </message>
        <message>
            <source>All linear layers</source>
            <translation>所有线性层</translation>
        </message>
        <message>
            <source>The layers that get adapters, as PEFT's target_modules: module names separated by commas</source>
            <translation>添加适配器的层，即 PEFT 的 target_modules：以逗号分隔的模块名</translation>
        </message>
        <message>
            <source>Scales the adapters' output by alpha / rank; no memory of its own</source>
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
            <source>Quantize the 4-bit weights' scales too: 0.127 instead of 0.5 bits per weight (QLoRA)</source>
            <translation>对 4 位权重的缩放因子也进行量化：每个权重占 0.127 位而非 0.5 位（QLoRA）</translation>
        </message>
        <message>
            <source>At this machine's measured speed</source>
            <translation>按本机实测速度</translation>
        </message>
        <message>
            <source>Price the step at the matmul rates and memory bandwidth the Probe tab last measured on this machine (its GPU, or its CPU when the workload runs there) instead of the datasheet's</source>
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
            <source>In a plain training loop the copy waits for the step's kernels on the same CUDA stream; a loader that prefetches the next batch on a side stream (pinned memory) hides it behind compute.</source>
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
            <source>Batch, length, accumulation, GPU count, strategy and GPU model are answered at once from the model's trace. Model, task, precision, optimizer, checkpointing, attention, device and the LoRA settings (all but alpha) need a new trace: PyTorch runs the real model on fake tensors in a separate process (seconds to a minute; kept on disk, so each is traced once).</source>
            <translation>批大小、序列长度、梯度累积、GPU 数量、并行策略和 GPU 型号可根据模型的追踪结果立即得出。模型、任务、精度、优化器、检查点、注意力、设备以及 LoRA 设置（alpha 除外）需要重新追踪：PyTorch 会在单独的进程中用伪张量运行真实模型（耗时数秒到一分钟；结果保存在磁盘上，因此每种组合只需追踪一次）。</translation>
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
            <source>the Probe tab's run {id}</source>
            <translation>“检测”选项卡中的运行 {id}</translation>
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
            <source>Traced in {seconds:.1f} s; everything else is answered from the trace.</source>
            <translation>追踪用时 {seconds:.1f} s；其余结果均根据追踪结果得出。</translation>
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
